# @generated from templates/_members.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = 'a79ac17986c1b3b218914aabaa6a9b412bd7675e05173ebca79cbad0eb49f626'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_members.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_literals = l_0_attr = l_0_doc = l_0_slots = l_0_annotations = l_0_init_function = l_0_methods = missing
    try:
        t_1 = environment.filters['comment']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'comment' found.")
    try:
        t_2 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_3 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
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
        t_7 = environment.filters['wordwrap']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'wordwrap' found.")
    pass
    l_0_literals = context.vars['literals'] = environment.get_template('_literals.j2', '_members.j2')._get_default_module(context)
    context.exported_vars.discard('literals')
    def macro(l_1_cls, l_1_name):
        t_8 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_name is missing:
            l_1_name = undefined("parameter 'name' was not provided", name='name')
        pass
        if t_5(l_1_name):
            pass
            t_8.extend((
                'self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                '.',
                str(l_1_name),
            ))
        else:
            pass
            t_8.extend((
                'getattr(self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                ', ',
                str(t_6(l_1_name)),
                ')',
            ))
        return concat(t_8)
    context.exported_vars.add('attr')
    context.vars['attr'] = l_0_attr = Macro(environment, macro, 'attr', ('cls', 'name'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_9 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_9.append(
            str(t_2(t_7(environment, l_1_text, 72, False, '\n', False), 8)),
        )
        return concat(t_9)
    context.exported_vars.add('doc')
    context.vars['doc'] = l_0_doc = Macro(environment, macro, 'doc', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_cls):
        t_10 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        pass
        for l_2_a in environment.getattr(environment.getattr(l_1_cls, 'members'), 'attributes'):
            _loop_vars = {}
            pass
            t_10.extend((
                ', ',
                str(t_6(environment.getattr(l_2_a, 'name'))),
            ))
        l_2_a = missing
        return concat(t_10)
    context.exported_vars.add('slots')
    context.vars['slots'] = l_0_slots = Macro(environment, macro, 'slots', ('cls',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_cls):
        t_11 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        pass
        for l_2_a in environment.getattr(environment.getattr(l_1_cls, 'members'), 'attributes'):
            _loop_vars = {}
            pass
            if environment.getattr(l_2_a, 'doc'):
                pass
                for l_3_line in context.call(environment.getattr(t_7(environment, t_1(environment.getattr(l_2_a, 'doc')), 76, False, '\n', False), 'split'), '\n', _loop_vars=_loop_vars):
                    _loop_vars = {}
                    pass
                    t_11.extend((
                        '    # ',
                        str(l_3_line),
                        '\n',
                    ))
                l_3_line = missing
            t_11.extend((
                '    ',
                str(environment.getattr(l_2_a, 'name')),
                ': ',
                str(environment.getattr(l_2_a, 'type')),
                '\n',
            ))
        l_2_a = missing
        return concat(t_11)
    context.exported_vars.add('annotations')
    context.vars['annotations'] = l_0_annotations = Macro(environment, macro, 'annotations', ('cls',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_cls, l_1_hooks_module):
        t_12 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_hooks_module is missing:
            l_1_hooks_module = undefined("parameter 'hooks_module' was not provided", name='hooks_module')
        pass
        if environment.getattr(environment.getattr(l_1_cls, 'members'), 'init'):
            pass
            t_12.extend((
                '\n\ndef _',
                str(environment.getattr(l_1_cls, 'name')),
                '_init(self: ',
                str(environment.getattr(l_1_cls, 'name')),
                ') -> None:\n    ',
                str(t_2(str_join(('What a new ', environment.getattr(l_1_cls, 'name'), " holds besides its message's defaults.", )))),
                '\n',
            ))
            if environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_read'):
                pass
                t_12.extend((
                    '    _runtime.read_env(self.',
                    str(environment.getattr(l_1_cls, 'message_attribute')),
                    ', _',
                    str(environment.getattr(l_1_cls, 'name')),
                    '_ENV',
                ))
                if environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_source'):
                    pass
                    t_12.extend((
                        ', ',
                        str(l_1_hooks_module),
                        '.',
                        str(environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_source')),
                        '()',
                    ))
                t_12.append(
                    ')\n',
                )
            for l_2_a in environment.getattr(environment.getattr(l_1_cls, 'members'), 'attributes'):
                _loop_vars = {}
                pass
                t_12.extend((
                    '    object.__setattr__(self, ',
                    str(t_6(environment.getattr(l_2_a, 'name'))),
                    ', ',
                    str(t_6(environment.getattr(l_2_a, 'default'))),
                    ')\n',
                ))
            l_2_a = missing
            if environment.getattr(l_1_cls, 'init_hook'):
                pass
                t_12.extend((
                    '    ',
                    str(l_1_hooks_module),
                    '.',
                    str(environment.getattr(l_1_cls, 'init_hook')),
                    '(self)\n',
                ))
        return concat(t_12)
    context.exported_vars.add('init_function')
    context.vars['init_function'] = l_0_init_function = Macro(environment, macro, 'init_function', ('cls', 'hooks_module'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_cls, l_1_hooks_module):
        t_13 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_hooks_module is missing:
            l_1_hooks_module = undefined("parameter 'hooks_module' was not provided", name='hooks_module')
        pass
        for l_2_a in environment.getattr(environment.getattr(l_1_cls, 'members'), 'aliases'):
            _loop_vars = {}
            pass
            t_13.extend((
                '\n    def ',
                str(environment.getattr(l_2_a, 'name')),
                '(self, ',
                str(environment.getattr(l_2_a, 'parameter')),
                ': ',
                str(environment.getattr(l_2_a, 'parameter_type')),
                ') -> None:\n',
            ))
            if environment.getattr(l_2_a, 'convert'):
                pass
                t_13.extend((
                    '        ',
                    str(context.call((undefined(name='doc') if l_0_doc is missing else l_0_doc), str_join(('Store ``str(', environment.getattr(l_2_a, 'parameter'), ')`` in the ``', environment.getattr(l_2_a, 'field_name'), '`` field.', )), _loop_vars=_loop_vars)),
                    '\n',
                ))
            elif (environment.getattr(l_2_a, 'action') == 'extend'):
                pass
                t_13.extend((
                    '        ',
                    str(context.call((undefined(name='doc') if l_0_doc is missing else l_0_doc), str_join(('Append the items of ``', environment.getattr(l_2_a, 'parameter'), '`` to the ``', environment.getattr(l_2_a, 'field_name'), '`` field.', )), _loop_vars=_loop_vars)),
                    '\n',
                ))
            elif (environment.getattr(l_2_a, 'action') == 'copy'):
                pass
                t_13.extend((
                    '        ',
                    str(context.call((undefined(name='doc') if l_0_doc is missing else l_0_doc), str_join(('Copy the message ``', environment.getattr(l_2_a, 'parameter'), '`` into the ``', environment.getattr(l_2_a, 'field_name'), '`` field.', )), _loop_vars=_loop_vars)),
                    '\n',
                ))
            else:
                pass
                t_13.extend((
                    '        ',
                    str(context.call((undefined(name='doc') if l_0_doc is missing else l_0_doc), str_join(('Store ``', environment.getattr(l_2_a, 'parameter'), '`` in the ``', environment.getattr(l_2_a, 'field_name'), '`` field, as protobuf checks it.', )), _loop_vars=_loop_vars)),
                    '\n',
                ))
            if (environment.getattr(l_2_a, 'action') == 'extend'):
                pass
                t_13.extend((
                    '        ',
                    str(context.call((undefined(name='attr') if l_0_attr is missing else l_0_attr), l_1_cls, environment.getattr(l_2_a, 'field_name'), _loop_vars=_loop_vars)),
                    '.extend(',
                    str(environment.getattr(l_2_a, 'parameter')),
                    ')\n',
                ))
            elif (environment.getattr(l_2_a, 'action') == 'copy'):
                pass
                t_13.extend((
                    '        ',
                    str(context.call((undefined(name='attr') if l_0_attr is missing else l_0_attr), l_1_cls, environment.getattr(l_2_a, 'field_name'), _loop_vars=_loop_vars)),
                    '.CopyFrom(',
                    str(environment.getattr(l_2_a, 'parameter')),
                    ')\n',
                ))
            elif t_5(environment.getattr(l_2_a, 'field_name')):
                pass
                t_13.extend((
                    '        self.',
                    str(environment.getattr(l_1_cls, 'message_attribute')),
                    '.',
                    str(environment.getattr(l_2_a, 'field_name')),
                    ' = ',
                ))
                if environment.getattr(l_2_a, 'convert'):
                    pass
                    t_13.extend((
                        'str(',
                        str(environment.getattr(l_2_a, 'parameter')),
                        ')',
                    ))
                else:
                    pass
                    t_13.append(
                        str(environment.getattr(l_2_a, 'parameter')),
                    )
                t_13.append(
                    '\n',
                )
            else:
                pass
                t_13.extend((
                    '        setattr(self.',
                    str(environment.getattr(l_1_cls, 'message_attribute')),
                    ', ',
                    str(t_6(environment.getattr(l_2_a, 'field_name'))),
                    ', ',
                ))
                if environment.getattr(l_2_a, 'convert'):
                    pass
                    t_13.extend((
                        'str(',
                        str(environment.getattr(l_2_a, 'parameter')),
                        ')',
                    ))
                else:
                    pass
                    t_13.append(
                        str(environment.getattr(l_2_a, 'parameter')),
                    )
                t_13.append(
                    ')\n',
                )
        l_2_a = missing
        if environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_export'):
            pass
            t_13.extend((
                '\n    def ',
                str(environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_export')),
                '(self) -> None:\n',
            ))
            if environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_export_doc'):
                pass
                t_13.extend((
                    '        ',
                    str(context.call((undefined(name='doc') if l_0_doc is missing else l_0_doc), environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_export_doc'))),
                    '\n',
                ))
            else:
                pass
                t_13.extend((
                    '        ',
                    str(context.call((undefined(name='doc') if l_0_doc is missing else l_0_doc), str_join(('Write the environment-backed fields to their variables (', t_3(context.eval_ctx, t_4(context, environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_fields'), attribute='variable'), ', '), ')', (str_join((': into the flags ``', l_1_hooks_module, '.', environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_source'), '()`` returns when it returns a mapping (only the flags it holds), else', )) if environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_source') else ':'), ' into ``os.environ``, where a process started later reads them.', )))),
                    '\n',
                ))
            t_13.extend((
                '        _runtime.export_env(self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                ', _',
                str(environment.getattr(l_1_cls, 'name')),
                '_ENV',
            ))
            if environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_source'):
                pass
                t_13.extend((
                    ', ',
                    str(l_1_hooks_module),
                    '.',
                    str(environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_source')),
                    '()',
                ))
            t_13.append(
                ')\n',
            )
        if environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_fields'):
            pass
            t_13.extend((
                '\n\n# Fields backed by environment variables: (variable, field, read when created[, its kind]).\n_',
                str(environment.getattr(l_1_cls, 'name')),
                '_ENV = ',
            ))
            def macro(l_2_e):
                t_14 = []
                if l_2_e is missing:
                    l_2_e = undefined("parameter 'e' was not provided", name='e')
                pass
                t_14.extend((
                    '_runtime.EnvField(',
                    str(t_6(environment.getattr(l_2_e, 'variable'))),
                    ', ',
                    str(t_6(environment.getattr(l_2_e, 'field_name'))),
                    ', ',
                    str(environment.getattr(l_2_e, 'read')),
                ))
                if environment.getattr(l_2_e, 'kind'):
                    pass
                    t_14.extend((
                        ', ',
                        str(t_6(environment.getattr(l_2_e, 'kind'))),
                    ))
                t_14.append(
                    ')',
                )
                return concat(t_14)
            caller = Macro(environment, macro, None, ('e',), False, False, False, context.eval_ctx.autoescape)
            t_13.append(context.call(environment.getattr((undefined(name='literals') if l_0_literals is missing else l_0_literals), 'tuple_of'), environment.getattr(environment.getattr(l_1_cls, 'members'), 'env_fields'), caller=caller))
            t_13.append(
                '\n',
            )
        return concat(t_13)
    context.exported_vars.add('methods')
    context.vars['methods'] = l_0_methods = Macro(environment, macro, 'methods', ('cls', 'hooks_module'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=54&4=56&5=63&7=83&8=89&10=94&11=99&13=110&14=115&15=118&16=120&17=125&20=131&23=140&24=147&27=151&28=155&29=158&30=162&32=179&33=184&35=190&36=194&40=202&41=209&43=214&44=221&45=225&46=228&47=232&48=235&49=239&51=246&53=249&54=253&55=258&56=262&57=267&58=271&61=295&64=316&66=320&67=323&68=327&70=334&72=339&74=356&78=360'
