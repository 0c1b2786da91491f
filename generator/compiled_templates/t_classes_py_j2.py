# @generated from templates/classes.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = 'd4d78076bf790b1b1c68e145b63e2c9b3f61c889cd1b2541a3ecf86294c2a09f'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'classes.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_module = resolve('module')
    l_0_classes = resolve('classes')
    l_0_pb2_imports = resolve('pb2_imports')
    l_0_package = resolve('package')
    l_0_hooks_module = resolve('hooks_module')
    l_0_h = l_0_docbody = l_0_pb2_import = l_0_members = l_0_literals = l_0_field_of = missing
    try:
        t_1 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_2 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_3 = environment.filters['plain_attribute']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'plain_attribute' found.")
    try:
        t_4 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_5 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    pass
    included_template = environment.get_template('_header.j2', 'classes.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'classes.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    included_template = environment.get_template('_doc.j2', 'classes.py.j2').make_module(context.get_all(), True, {'docbody': l_0_docbody, 'field_of': l_0_field_of, 'h': l_0_h, 'literals': l_0_literals, 'members': l_0_members, 'pb2_import': l_0_pb2_import})
    l_0_docbody = getattr(included_template, 'docbody', missing)
    if l_0_docbody is missing:
        l_0_docbody = undefined(f"the template {included_template.__name__!r} (imported on line 2 in 'classes.py.j2') does not export the requested name 'docbody'", name='docbody')
    context.vars['docbody'] = l_0_docbody
    context.exported_vars.discard('docbody')
    included_template = environment.get_template('_imports.j2', 'classes.py.j2')._get_default_module(context)
    l_0_pb2_import = getattr(included_template, 'pb2_import', missing)
    if l_0_pb2_import is missing:
        l_0_pb2_import = undefined(f"the template {included_template.__name__!r} (imported on line 3 in 'classes.py.j2') does not export the requested name 'pb2_import'", name='pb2_import')
    context.vars['pb2_import'] = l_0_pb2_import
    context.exported_vars.discard('pb2_import')
    l_0_members = context.vars['members'] = environment.get_template('_members.j2', 'classes.py.j2')._get_default_module(context)
    context.exported_vars.discard('members')
    l_0_literals = context.vars['literals'] = environment.get_template('_literals.j2', 'classes.py.j2')._get_default_module(context)
    context.exported_vars.discard('literals')
    def macro(l_1_cls, l_1_prop):
        t_6 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_prop is missing:
            l_1_prop = undefined("parameter 'prop' was not provided", name='prop')
        pass
        if t_3(environment.getattr(l_1_prop, 'field_name')):
            pass
            t_6.extend((
                'self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                '.',
                str(environment.getattr(l_1_prop, 'field_name')),
            ))
        else:
            pass
            t_6.extend((
                'getattr(self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                ', ',
                str(t_4(environment.getattr(l_1_prop, 'field_name'))),
                ')',
            ))
        return concat(t_6)
    context.exported_vars.add('field_of')
    context.vars['field_of'] = l_0_field_of = Macro(environment, macro, 'field_of', ('cls', 'prop'), False, False, False, context.eval_ctx.autoescape)
    yield '"""Wrapper classes of ``'
    yield str((undefined(name='module') if l_0_module is missing else l_0_module))
    yield '``: typed properties over protobuf messages."""\n\nfrom __future__ import annotations\n\nfrom typing import TYPE_CHECKING'
    if t_2(context.eval_ctx, t_5(context, (undefined(name='classes') if l_0_classes is missing else l_0_classes), 'has_views')):
        pass
        yield ', cast'
    yield '\n\n'
    for l_1_m in (undefined(name='pb2_imports') if l_0_pb2_imports is missing else l_0_pb2_imports):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='pb2_import') if l_0_pb2_import is missing else l_0_pb2_import), l_1_m, _loop_vars=_loop_vars))
        yield '\n'
    l_1_m = missing
    yield '\n# importing _specs registers the message specs the classes are built from\nfrom '
    yield str((undefined(name='package') if l_0_package is missing else l_0_package))
    yield ' import _specs as _specs  # noqa: F401\nfrom '
    yield str((undefined(name='package') if l_0_package is missing else l_0_package))
    yield ' import runtime as _runtime\n'
    if (undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module):
        pass
        yield 'from '
        yield str((undefined(name='package') if l_0_package is missing else l_0_package))
        yield ' import '
        yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
        yield '\n'
    yield '\nif TYPE_CHECKING:\n    from collections.abc import Mapping\n    from typing import Any\n\n    from google.protobuf.internal import containers as _containers\n\n'
    for l_1_cls in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_cls, 'type_imports'):
            pass
            yield '    from '
            yield str((undefined(name='package') if l_0_package is missing else l_0_package))
            yield '.types import (\n'
            for l_2_name in environment.getattr(l_1_cls, 'type_imports'):
                _loop_vars = {}
                pass
                yield '        '
                yield str(l_2_name)
                yield ',\n'
            l_2_name = missing
            yield '    )\n'
    l_1_cls = missing
    yield '\n__all__ = [\n'
    for l_1_cls in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_4(environment.getattr(l_1_cls, 'name')))
        yield ',\n'
    l_1_cls = missing
    yield ']\n'
    for l_1_cls in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        _loop_vars = {}
        pass
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'init_function'), l_1_cls, (undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module), _loop_vars=_loop_vars))
        yield '\n\nclass '
        yield str(environment.getattr(l_1_cls, 'name'))
        yield '(\n'
        if environment.getattr(l_1_cls, 'mixin'):
            pass
            yield '    '
            yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
            yield '.'
            yield str(environment.getattr(l_1_cls, 'mixin'))
            yield ',\n'
        yield '    _runtime.Wrapper,\n    message='
        yield str(environment.getattr(l_1_cls, 'message_cls'))
        yield ',\n    attribute='
        yield str(t_4(environment.getattr(l_1_cls, 'message_attribute')))
        yield ',\n'
        if environment.getattr(environment.getattr(l_1_cls, 'members'), 'init'):
            pass
            yield '    init=_'
            yield str(environment.getattr(l_1_cls, 'name'))
            yield '_init,\n'
        elif environment.getattr(l_1_cls, 'init_hook'):
            pass
            yield '    init='
            yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
            yield '.'
            yield str(environment.getattr(l_1_cls, 'init_hook'))
            yield ',\n'
        if (not environment.getattr(l_1_cls, 'empty_config_sets')):
            pass
            yield '    empty_config_sets=False,\n'
        yield '):\n    '
        yield str(t_1(context.call((undefined(name='docbody') if l_0_docbody is missing else l_0_docbody), environment.getattr(l_1_cls, 'doc'), _loop_vars=_loop_vars)))
        yield '\n\n    __slots__ = ('
        yield str(t_4(environment.getattr(l_1_cls, 'message_attribute')))
        yield ', "_strict"'
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'slots'), l_1_cls, _loop_vars=_loop_vars))
        yield ')\n'
        if environment.getattr(l_1_cls, 'direct'):
            pass
            yield '    # plain scalar options: __setattr__ sets a value of exactly their type itself\n    _direct = '
            def macro(l_2_name):
                t_7 = []
                if l_2_name is missing:
                    l_2_name = undefined("parameter 'name' was not provided", name='name')
                pass
                t_7.append(
                    str(t_4(l_2_name)),
                )
                return concat(t_7)
            caller = Macro(environment, macro, None, ('name',), False, False, False, context.eval_ctx.autoescape)
            yield context.call(environment.getattr((undefined(name='literals') if l_0_literals is missing else l_0_literals), 'tuple_of'), environment.getattr(l_1_cls, 'direct'), '    ', caller=caller, _loop_vars=_loop_vars)
            yield '\n'
        if environment.getattr(l_1_cls, 'renamed'):
            pass
            yield '    _renamed = {\n'
            for (l_2_name, l_2_field) in environment.getattr(l_1_cls, 'renamed'):
                _loop_vars = {}
                pass
                yield '        '
                yield str(t_4(l_2_name))
                yield ': '
                yield str(t_4(l_2_field))
                yield ',\n'
            l_2_name = l_2_field = missing
            yield '    }\n'
        yield '\n    '
        yield str(environment.getattr(l_1_cls, 'message_attribute'))
        yield ': '
        yield str(environment.getattr(l_1_cls, 'message_cls'))
        yield '\n'
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'annotations'), l_1_cls, _loop_vars=_loop_vars))
        for l_2_prop in environment.getattr(l_1_cls, 'properties'):
            _loop_vars = {}
            pass
            yield '\n    @property\n    def '
            yield str(environment.getattr(l_2_prop, 'name'))
            yield '(self) -> '
            yield str(environment.getattr(l_2_prop, 'getter_type'))
            yield ':\n        '
            yield str(t_1(context.call((undefined(name='docbody') if l_0_docbody is missing else l_0_docbody), environment.getattr(l_2_prop, 'doc'), environment.getattr(environment.getattr(l_1_cls, 'doc'), 'rules'), _loop_vars=_loop_vars), 8))
            yield '\n'
            if environment.getattr(l_2_prop, 'getter_hook'):
                pass
                yield '        return '
                yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                yield '.'
                yield str(environment.getattr(l_2_prop, 'getter_hook'))
                yield '(self)\n'
            elif (environment.getattr(l_2_prop, 'read') == 'view'):
                pass
                yield '        return cast('
                yield str(t_4(environment.getattr(l_2_prop, 'getter_type')))
                yield ', _runtime.dict_view('
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield ', self._lock))\n'
            elif (environment.getattr(l_2_prop, 'read') == 'list'):
                pass
                yield '        with self._lock:\n            return list('
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield ')\n'
            elif (environment.getattr(l_2_prop, 'read') == 'dict'):
                pass
                yield '        with self._lock:\n            return dict('
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield ')\n'
            else:
                pass
                yield '        return '
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield '\n'
            if environment.getattr(l_2_prop, 'setter_type'):
                pass
                yield '\n    @'
                yield str(environment.getattr(l_2_prop, 'name'))
                yield '.setter\n    def '
                yield str(environment.getattr(l_2_prop, 'name'))
                yield '(self, value: '
                yield str(environment.getattr(l_2_prop, 'setter_type'))
                yield ') -> None:\n'
                if environment.getattr(l_2_prop, 'setter_hook'):
                    pass
                    if environment.getattr(l_2_prop, 'deprecated'):
                        pass
                        yield '        _runtime.warn_deprecated('
                        yield str(t_4(environment.getattr(l_2_prop, 'name')))
                        yield ')\n'
                    yield '        '
                    yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                    yield '.'
                    yield str(environment.getattr(l_2_prop, 'setter_hook'))
                    yield '(self, value)\n'
                else:
                    pass
                    yield '        self._set('
                    yield str(t_4(environment.getattr(l_2_prop, 'name')))
                    yield ', value)\n'
                if environment.getattr(l_2_prop, 'after_set_hook'):
                    pass
                    yield '        '
                    yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                    yield '.'
                    yield str(environment.getattr(l_2_prop, 'after_set_hook'))
                    yield '(self)\n'
        l_2_prop = missing
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'methods'), l_1_cls, (undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module), _loop_vars=_loop_vars))
        yield '\n'
    l_1_cls = missing

blocks = {}
debug_info = '1=48&2=56&3=62&4=68&5=70&6=72&7=79&9=100&13=102&16=106&17=109&21=113&22=115&23=117&24=120&33=125&34=128&35=131&36=133&37=137&44=143&45=147&48=151&49=154&51=156&52=158&53=161&56=166&57=168&58=170&59=173&60=175&61=178&63=182&67=186&69=188&70=192&72=195&75=207&77=210&78=214&83=221&84=225&87=230&88=234&89=236&90=239&91=243&92=246&93=250&95=253&96=255&98=258&100=263&102=265&104=268&105=270&106=274&107=276&108=279&110=282&112=289&114=291&115=294&119=299'
