# @generated from templates/classes.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = 'e23556563ea327bcb31b5fb0d979c75fd8d31790b77f9d527c51604070fd76b7'
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
    l_0_module_members = resolve('module_members')
    l_0_h = l_0_docbody = l_0_pb2_import = l_0_members = l_0_literals = l_0_field_of = l_0_exports = missing
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
        t_4 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_5 = environment.filters['plain_attribute']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'plain_attribute' found.")
    try:
        t_6 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_7 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_8 = environment.filters['wordwrap']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'wordwrap' found.")
    try:
        t_9 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    included_template = environment.get_template('_header.j2', 'classes.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'classes.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    included_template = environment.get_template('_doc.j2', 'classes.py.j2').make_module(context.get_all(), True, {'docbody': l_0_docbody, 'exports': l_0_exports, 'field_of': l_0_field_of, 'h': l_0_h, 'literals': l_0_literals, 'members': l_0_members, 'pb2_import': l_0_pb2_import})
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
        t_10 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_prop is missing:
            l_1_prop = undefined("parameter 'prop' was not provided", name='prop')
        pass
        if t_5(environment.getattr(l_1_prop, 'field_name')):
            pass
            t_10.extend((
                'self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                '.',
                str(environment.getattr(l_1_prop, 'field_name')),
            ))
        else:
            pass
            t_10.extend((
                'getattr(self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                ', ',
                str(t_6(environment.getattr(l_1_prop, 'field_name'))),
                ')',
            ))
        return concat(t_10)
    context.exported_vars.add('field_of')
    context.vars['field_of'] = l_0_field_of = Macro(environment, macro, 'field_of', ('cls', 'prop'), False, False, False, context.eval_ctx.autoescape)
    yield '"""Wrapper classes of ``'
    yield str((undefined(name='module') if l_0_module is missing else l_0_module))
    yield '``: typed properties over protobuf messages."""\n\nfrom __future__ import annotations\n\nfrom typing import TYPE_CHECKING'
    if t_2(context.eval_ctx, t_7(context, (undefined(name='classes') if l_0_classes is missing else l_0_classes), 'has_views')):
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
    if t_2(context.eval_ctx, t_7(context, (undefined(name='classes') if l_0_classes is missing else l_0_classes), 'lint_rules')):
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
    if ((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members) and environment.getattr((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members), 'names')):
        pass
        yield "\n# what this build's module defines besides its classes (the annotations' module_members)\nfrom "
        yield str((undefined(name='package') if l_0_package is missing else l_0_package))
        yield '.'
        yield str(environment.getattr((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members), 'source'))
        yield ' import (\n'
        for l_1_name in environment.getattr((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members), 'names'):
            _loop_vars = {}
            pass
            yield '    '
            yield str(l_1_name)
            yield ',\n'
        l_1_name = missing
        yield ')\n'
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
    yield '\n'
    l_0_exports = (environment.getattr((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members), 'exports') if ((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members) and (not t_9(environment.getattr((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members), 'exports')))) else t_2(context.eval_ctx, t_4(context, (undefined(name='classes') if l_0_classes is missing else l_0_classes), attribute='name')))
    context.vars['exports'] = l_0_exports
    context.exported_vars.add('exports')
    if (undefined(name='exports') if l_0_exports is missing else l_0_exports):
        pass
        yield '__all__ = [\n'
        for l_1_name in (undefined(name='exports') if l_0_exports is missing else l_0_exports):
            _loop_vars = {}
            pass
            yield '    '
            yield str(t_6(l_1_name))
            yield ',\n'
        l_1_name = missing
        yield ']\n'
    else:
        pass
        yield '__all__: list[str] = []\n'
    for l_1_a in (environment.getattr((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members), 'attributes') if (undefined(name='module_members') if l_0_module_members is missing else l_0_module_members) else ()):
        _loop_vars = {}
        pass
        yield '\n'
        if environment.getattr(l_1_a, 'doc'):
            pass
            for l_2_line in context.call(environment.getattr(t_8(environment, environment.getattr(l_1_a, 'doc'), 98, False, '\n', False), 'split'), '\n', _loop_vars=_loop_vars):
                _loop_vars = {}
                pass
                yield '# '
                yield str(l_2_line)
                yield '\n'
            l_2_line = missing
        yield str(environment.getattr(l_1_a, 'name'))
        yield ': '
        yield str(environment.getattr(l_1_a, 'type'))
        yield ' = '
        yield str(t_6(environment.getattr(l_1_a, 'default')))
        yield '\n'
    l_1_a = missing
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
        yield str(t_6(environment.getattr(l_1_cls, 'message_attribute')))
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
        yield str(t_6(environment.getattr(l_1_cls, 'message_attribute')))
        yield ', "_strict"'
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'slots'), l_1_cls, _loop_vars=_loop_vars))
        yield ')\n'
        if environment.getattr(l_1_cls, 'direct'):
            pass
            yield "    # Plain scalar options. The attribute lock's __setattr__ runs before any\n    # setter (an unknown name is a TypeError), so in compatible mode it stores\n    # a value of exactly the option's type itself; the setter below runs for\n    # anything else. Going through a setter (or a descriptor per field) costs\n    # 3 to 6 times as much per assignment: over the scalar_set budget.\n    _direct = "
            def macro(l_2_name):
                t_11 = []
                if l_2_name is missing:
                    l_2_name = undefined("parameter 'name' was not provided", name='name')
                pass
                t_11.append(
                    str(t_6(l_2_name)),
                )
                return concat(t_11)
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
                yield str(t_6(l_2_name))
                yield ': '
                yield str(t_6(l_2_field))
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
                yield str(t_6(environment.getattr(l_2_prop, 'getter_type')))
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
                        yield str(t_6(environment.getattr(l_2_prop, 'name')))
                        yield ')\n'
                    yield '        '
                    yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                    yield '.'
                    yield str(environment.getattr(l_2_prop, 'setter_hook'))
                    yield '(self, value)\n'
                else:
                    pass
                    yield '        self._set('
                    yield str(t_6(environment.getattr(l_2_prop, 'name')))
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
            yield str(t_6(environment.getattr(l_1_cls, 'message_full_name')))
            yield '], world_size)\n'
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'methods'), l_1_cls, (undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module), _loop_vars=_loop_vars))
        yield '\n'
    l_1_cls = l_1_example_import = missing

blocks = {}
debug_info = '1=73&2=81&3=87&4=93&5=95&6=97&7=104&9=125&13=127&16=131&17=134&21=138&22=140&23=142&24=145&25=147&27=149&28=152&30=156&33=159&34=163&35=167&46=172&47=175&48=178&49=180&50=184&56=190&57=193&59=196&60=200&66=207&68=211&69=213&70=217&73=220&75=227&76=231&78=233&79=235&80=238&83=243&84=245&85=247&86=250&87=252&88=255&90=259&94=263&96=265&97=269&103=272&106=284&108=287&109=291&114=298&115=302&118=307&119=311&120=313&121=316&122=320&123=323&124=327&126=330&127=332&129=335&131=340&133=342&135=345&136=347&137=351&138=353&139=356&141=359&144=366&146=368&147=371&151=376&164=379&165=382&166=386&169=388&171=392'
