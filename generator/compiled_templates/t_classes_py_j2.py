# @generated from templates/classes.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '95adef7a3e1f17b2a4514b469dac1e93d307122bada7733dd9320cd7ef4abb97'
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
    l_0_imports = resolve('imports')
    l_0_checking = resolve('checking')
    l_0_module_members = resolve('module_members')
    l_0_classes = resolve('classes')
    l_0_h = l_0_docbody = l_0_members = l_0_literals = l_0_field_of = l_0_exports = missing
    try:
        t_1 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_2 = environment.filters['indent']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'indent' found.")
    try:
        t_3 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_4 = environment.filters['lower']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'lower' found.")
    try:
        t_5 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_6 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_7 = environment.filters['wordwrap']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'wordwrap' found.")
    try:
        t_8 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_8(*unused):
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
    included_template = environment.get_template('_doc.j2', 'classes.py.j2').make_module(context.get_all(), True, {'docbody': l_0_docbody, 'exports': l_0_exports, 'field_of': l_0_field_of, 'h': l_0_h, 'literals': l_0_literals, 'members': l_0_members})
    l_0_docbody = getattr(included_template, 'docbody', missing)
    if l_0_docbody is missing:
        l_0_docbody = undefined(f"the template {included_template.__name__!r} (imported on line 2 in 'classes.py.j2') does not export the requested name 'docbody'", name='docbody')
    context.vars['docbody'] = l_0_docbody
    context.exported_vars.discard('docbody')
    l_0_members = context.vars['members'] = environment.get_template('_members.j2', 'classes.py.j2')._get_default_module(context)
    context.exported_vars.discard('members')
    l_0_literals = context.vars['literals'] = environment.get_template('_literals.j2', 'classes.py.j2')._get_default_module(context)
    context.exported_vars.discard('literals')
    def macro(l_1_cls, l_1_prop):
        t_9 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_prop is missing:
            l_1_prop = undefined("parameter 'prop' was not provided", name='prop')
        pass
        if (not environment.getattr(l_1_prop, 'via_getattr')):
            pass
            t_9.extend((
                'self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                '.',
                str(environment.getattr(l_1_prop, 'field_name')),
            ))
        else:
            pass
            t_9.extend((
                'getattr(self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                ', ',
                str(t_6(environment.getattr(l_1_prop, 'field_name'))),
                ')',
            ))
        return concat(t_9)
    context.exported_vars.add('field_of')
    context.vars['field_of'] = l_0_field_of = Macro(environment, macro, 'field_of', ('cls', 'prop'), False, False, False, context.eval_ctx.autoescape)
    yield '"""Wrapper classes of ``'
    yield str((undefined(name='module') if l_0_module is missing else l_0_module))
    yield '``: typed properties over protobuf messages."""\n\n'
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n'
    if (undefined(name='checking') if l_0_checking is missing else l_0_checking):
        pass
        yield '\nif TYPE_CHECKING:\n'
        yield str(t_2((undefined(name='checking') if l_0_checking is missing else l_0_checking), 4, first=True))
        yield '\n'
    yield '\n'
    l_0_exports = (environment.getattr((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members), 'exports') if ((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members) and (not t_8(environment.getattr((undefined(name='module_members') if l_0_module_members is missing else l_0_module_members), 'exports')))) else t_3(context.eval_ctx, t_5(context, (undefined(name='classes') if l_0_classes is missing else l_0_classes), attribute='name')))
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
            for l_2_line in context.call(environment.getattr(t_7(environment, environment.getattr(l_1_a, 'doc'), 98, False, '\n', False), 'split'), '\n', _loop_vars=_loop_vars):
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
        l_1_hooks_module = resolve('hooks_module')
        l_1_example_import = resolve('example_import')
        _loop_vars = {}
        pass
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'init_function'), l_1_cls, (undefined(name='hooks_module') if l_1_hooks_module is missing else l_1_hooks_module), _loop_vars=_loop_vars))
        yield '\n\nclass '
        yield str(environment.getattr(l_1_cls, 'name'))
        yield '(\n'
        if environment.getattr(l_1_cls, 'mixin'):
            pass
            yield '    '
            yield str((undefined(name='hooks_module') if l_1_hooks_module is missing else l_1_hooks_module))
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
            yield str((undefined(name='hooks_module') if l_1_hooks_module is missing else l_1_hooks_module))
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
            yield '    # plain scalar options: __setattr__ sets a value of exactly their type itself\n    _direct = '
            def macro(l_2_name):
                t_10 = []
                if l_2_name is missing:
                    l_2_name = undefined("parameter 'name' was not provided", name='name')
                pass
                t_10.append(
                    str(t_6(l_2_name)),
                )
                return concat(t_10)
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
                yield str((undefined(name='hooks_module') if l_1_hooks_module is missing else l_1_hooks_module))
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
            elif environment.getattr(l_2_prop, 'via_getattr'):
                pass
                yield '        return cast('
                yield str(t_6(environment.getattr(l_2_prop, 'getter_type')))
                yield ', '
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
                    yield str((undefined(name='hooks_module') if l_1_hooks_module is missing else l_1_hooks_module))
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
                    yield str((undefined(name='hooks_module') if l_1_hooks_module is missing else l_1_hooks_module))
                    yield '.'
                    yield str(environment.getattr(l_2_prop, 'after_set_hook'))
                    yield '(self)\n'
        l_2_prop = missing
        if environment.getattr(l_1_cls, 'lint_rules'):
            pass
            yield '\n    def lint(self, world_size: '
            yield str(environment.getitem(environment.getattr(l_1_cls, 'lint_types'), 0))
            yield ' = None) -> '
            yield str(environment.getitem(environment.getattr(l_1_cls, 'lint_types'), 1))
            yield ':\n        """Check the rules between this object\'s fields; it is only read.\n\n        Each finding names a rule (``code``, stable), the fields involved\n        (``fields``) and what is wrong in one sentence (``message``): a\n        setting that has no effect, two that conflict, values that do not\n        fit together. ``world_size``, the number of ranks the job runs on,\n        enables the rules relating values to it. The rules are listed in\n        the option reference and in the docs of each field they involve.\n\n        Examples:\n            '
            yield str(environment.getitem((undefined(name='example_import') if l_1_example_import is missing else l_1_example_import), 1))
            yield str(environment.getattr(l_1_cls, 'name'))
            yield '\n            >>> '
            yield str(t_4(environment.getattr(l_1_cls, 'name')))
            yield ' = '
            yield str(environment.getattr(l_1_cls, 'name'))
            yield '()\n            >>> '
            yield str(t_4(environment.getattr(l_1_cls, 'name')))
            yield '.lint()\n            []\n        """\n        return _lint.lint(self.'
            yield str(environment.getattr(l_1_cls, 'message_attribute'))
            yield ', _rules.RULES['
            yield str(t_6(environment.getattr(l_1_cls, 'message_full_name')))
            yield '], world_size)\n'
        yield str(context.call(environment.getattr((undefined(name='members') if l_0_members is missing else l_0_members), 'methods'), l_1_cls, (undefined(name='hooks_module') if l_1_hooks_module is missing else l_1_hooks_module), _loop_vars=_loop_vars))
        yield '\n'
    l_1_cls = l_1_hooks_module = l_1_example_import = missing

blocks = {}
debug_info = '1=66&2=74&3=80&4=82&5=84&6=91&8=112&10=114&11=116&14=119&17=122&18=125&20=128&21=132&27=139&29=143&30=145&31=149&34=152&36=159&37=164&39=166&40=168&41=171&44=176&45=178&46=180&47=183&48=185&49=188&51=192&55=196&57=198&58=202&60=205&63=217&65=220&66=224&71=231&72=235&75=240&76=244&77=246&78=249&79=253&80=256&81=260&83=263&84=265&86=268&87=270&88=273&90=280&92=282&94=285&95=287&96=291&97=293&98=296&100=299&102=306&104=308&105=311&109=316&111=319&122=323&123=326&124=330&127=332&129=336'
