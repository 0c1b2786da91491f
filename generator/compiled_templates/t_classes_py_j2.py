# @generated from templates/classes.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '51644e2f4a14189548c4f66990b97c3fe4d40baffa38d9eb57b0517d43413c35'
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
        t_3 = environment.filters['lower']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'lower' found.")
    try:
        t_4 = environment.filters['plain_attribute']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'plain_attribute' found.")
    try:
        t_5 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_6 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_6(*unused):
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
        t_7 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_prop is missing:
            l_1_prop = undefined("parameter 'prop' was not provided", name='prop')
        pass
        if t_4(environment.getattr(l_1_prop, 'field_name')):
            pass
            t_7.extend((
                'self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                '.',
                str(environment.getattr(l_1_prop, 'field_name')),
            ))
        else:
            pass
            t_7.extend((
                'getattr(self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                ', ',
                str(t_5(environment.getattr(l_1_prop, 'field_name'))),
                ')',
            ))
        return concat(t_7)
    context.exported_vars.add('field_of')
    context.vars['field_of'] = l_0_field_of = Macro(environment, macro, 'field_of', ('cls', 'prop'), False, False, False, context.eval_ctx.autoescape)
    yield '"""Wrapper classes of ``'
    yield str((undefined(name='module') if l_0_module is missing else l_0_module))
    yield '``: typed properties over protobuf messages."""\n\nfrom __future__ import annotations\n\nfrom typing import TYPE_CHECKING'
    if t_2(context.eval_ctx, t_6(context, (undefined(name='classes') if l_0_classes is missing else l_0_classes), 'has_views')):
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
    if t_2(context.eval_ctx, t_6(context, (undefined(name='classes') if l_0_classes is missing else l_0_classes), 'lint_rules')):
        pass
        yield 'from '
        yield str((undefined(name='package') if l_0_package is missing else l_0_package))
        yield ' import _rules as _rules\nfrom '
        yield str((undefined(name='package') if l_0_package is missing else l_0_package))
        yield ' import lint as _lint\n'
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
        yield str(t_5(environment.getattr(l_1_cls, 'name')))
        yield ',\n'
    l_1_cls = missing
    yield ']\n'
    for l_1_cls in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        l_1_example_import = resolve('example_import')
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
        yield str(t_5(environment.getattr(l_1_cls, 'message_attribute')))
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
        yield str(t_5(environment.getattr(l_1_cls, 'message_attribute')))
        yield ', "_strict"'
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'slots'), l_1_cls, _loop_vars=_loop_vars))
        yield ')\n'
        if environment.getattr(l_1_cls, 'direct'):
            pass
            yield '    # plain scalar options: __setattr__ sets a value of exactly their type itself\n    _direct = '
            def macro(l_2_name):
                t_8 = []
                if l_2_name is missing:
                    l_2_name = undefined("parameter 'name' was not provided", name='name')
                pass
                t_8.append(
                    str(t_5(l_2_name)),
                )
                return concat(t_8)
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
                yield str(t_5(l_2_name))
                yield ': '
                yield str(t_5(l_2_field))
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
                yield str(t_5(environment.getattr(l_2_prop, 'getter_type')))
                yield ', _runtime.dict_view('
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield '))\n'
            elif (environment.getattr(l_2_prop, 'read') == 'list'):
                pass
                yield '        return list('
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield ')\n'
            elif (environment.getattr(l_2_prop, 'read') == 'dict'):
                pass
                yield '        return dict('
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
                        yield str(t_5(environment.getattr(l_2_prop, 'name')))
                        yield ')\n'
                    yield '        '
                    yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                    yield '.'
                    yield str(environment.getattr(l_2_prop, 'setter_hook'))
                    yield '(self, value)\n'
                else:
                    pass
                    yield '        self._set('
                    yield str(t_5(environment.getattr(l_2_prop, 'name')))
                    yield ', value)\n'
                if environment.getattr(l_2_prop, 'after_set_hook'):
                    pass
                    yield '        '
                    yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                    yield '.'
                    yield str(environment.getattr(l_2_prop, 'after_set_hook'))
                    yield '(self)\n'
        l_2_prop = missing
        if environment.getattr(l_1_cls, 'lint_rules'):
            pass
            yield '\n    def lint(self, world_size: int | None = None) -> list[_lint.Finding]:\n        """Check the rules between this object\'s fields; it is only read.\n\n        Each finding names a rule (``code``, stable), the fields involved\n        (``fields``) and what is wrong in one sentence (``message``): a\n        setting that has no effect, two that conflict, values that do not\n        fit together. ``world_size``, the number of ranks the job runs on,\n        enables the rules relating values to it. The rules are listed in\n        the option reference and in the docs of each field they involve.\n\n        Examples:\n            '
            yield str(environment.getitem((undefined(name='example_import') if l_1_example_import is missing else l_1_example_import), 1))
            yield str(environment.getattr(l_1_cls, 'name'))
            yield '\n            >>> '
            yield str(t_3(environment.getattr(l_1_cls, 'name')))
            yield ' = '
            yield str(environment.getattr(l_1_cls, 'name'))
            yield '()\n            >>> '
            yield str(t_3(environment.getattr(l_1_cls, 'name')))
            yield '.lint()\n            []\n        """\n        return _lint.lint(self.'
            yield str(environment.getattr(l_1_cls, 'message_attribute'))
            yield ', _rules.RULES['
            yield str(t_5(environment.getattr(l_1_cls, 'message_full_name')))
            yield '], world_size)\n'
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'methods'), l_1_cls, (undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module), _loop_vars=_loop_vars))
        yield '\n'
    l_1_cls = l_1_example_import = missing

blocks = {}
debug_info = '1=54&2=62&3=68&4=74&5=76&6=78&7=85&9=106&13=108&16=112&17=115&21=119&22=121&23=123&24=126&25=128&27=130&28=133&37=138&38=141&39=144&40=146&41=150&48=156&49=160&52=164&53=168&55=170&56=172&57=175&60=180&61=182&62=184&63=187&64=189&65=192&67=196&71=200&73=202&74=206&76=209&79=221&81=224&82=228&87=235&88=239&91=244&92=248&93=250&94=253&95=257&96=260&97=264&98=267&99=269&100=272&102=277&104=279&106=282&107=284&108=288&109=290&110=293&112=296&114=303&116=305&117=308&121=313&134=316&135=319&136=323&139=325&141=329'
