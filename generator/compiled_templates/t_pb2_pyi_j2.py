# @generated from templates/pb2.pyi.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '9f06a664d5994d92157c2457b98940e5b19a65610e4b577246d9ac4a5d3c45c5'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'pb2.pyi.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_module = resolve('module')
    l_0_imports = resolve('imports')
    l_0_n = resolve('n')
    l_0_h = l_0_enum_stub = l_0_message_stub = missing
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
        t_3 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_4 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_5 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_6 = environment.filters['plain_attribute']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'plain_attribute' found.")
    try:
        t_7 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_8 = environment.filters['select']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'select' found.")
    try:
        t_9 = environment.filters['shown']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'shown' found.")
    pass
    included_template = environment.get_template('_header.j2', 'pb2.pyi.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'pb2.pyi.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    yield str(t_1(str_join(('Type stubs of ``', t_9(environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'proto_file')), "``'s protobuf classes.", )), 0))
    yield '\n\n'
    if environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'typed_extensions'):
        pass
        yield "# an extension's type is protobuf's private _ExtensionFieldDescriptor (as in mypy-protobuf's stubs)\n# pyright: reportPrivateUsage=false\n\n"
    yield '# builtins and typing names under private aliases: a field or message may be\n# named int, property, Mapping, ...\n'
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n\nDESCRIPTOR: '
    yield str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'FileDescriptor'))
    yield '\n'
    for l_1_ext in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'extensions'):
        _loop_vars = {}
        pass
        yield str(environment.getattr(l_1_ext, 'constant'))
        yield ': '
        yield str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'int'))
        yield '\n'
        if environment.getattr(l_1_ext, 'plain'):
            pass
            yield str(environment.getattr(l_1_ext, 'name'))
            yield ': '
            yield str(environment.getattr(l_1_ext, 'type'))
            yield '\n'
    l_1_ext = missing
    def macro(l_1_enum, l_1_outer):
        t_10 = []
        if l_1_enum is missing:
            l_1_enum = undefined("parameter 'enum' was not provided", name='enum')
        if l_1_outer is missing:
            l_1_outer = undefined("parameter 'outer' was not provided", name='outer')
        pass
        t_10.extend((
            'class ',
            str(environment.getitem(context.call(environment.getattr(environment.getattr(l_1_enum, 'pb2_path'), 'rsplit'), '.', 1), -1)),
            '(',
            str(environment.getattr(l_1_outer, 'int')),
            ', metaclass=',
            str(environment.getattr(l_1_outer, 'EnumTypeWrapper')),
            '):\n    __slots__ = ()\n',
        ))
        def t_11(fiter):
            for l_2_value in fiter:
                if t_6(environment.getitem(l_2_value, 0)):
                    yield l_2_value
        for l_2_value in t_11(environment.getattr(l_1_enum, 'values')):
            _loop_vars = {}
            pass
            t_10.extend((
                '    ',
                str(environment.getitem(l_2_value, 0)),
                ': ',
                str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'ClassVar')),
                '[',
                str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'int')),
                ']\n',
            ))
        l_2_value = missing
        return concat(t_10)
    context.exported_vars.add('enum_stub')
    context.vars['enum_stub'] = l_0_enum_stub = Macro(environment, macro, 'enum_stub', ('enum', 'outer'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_message, l_1_outer):
        t_12 = []
        l_1_b = missing
        if l_1_message is missing:
            l_1_message = undefined("parameter 'message' was not provided", name='message')
        if l_1_outer is missing:
            l_1_outer = undefined("parameter 'outer' was not provided", name='outer')
        pass
        l_1_b = environment.getattr(l_1_message, 'name_of')
        t_12.extend((
            'class ',
            str(environment.getattr(l_1_message, 'name')),
            '(',
            str(environment.getattr(l_1_outer, 'Message')),
            '):\n',
        ))
        if environment.getattr(l_1_message, 'doc'):
            pass
            t_12.extend((
                '    ',
                str(t_1(environment.getattr(l_1_message, 'doc'))),
                '\n\n',
            ))
        for l_2_enum in environment.getattr(l_1_message, 'enums'):
            _loop_vars = {}
            pass
            t_12.extend((
                str(t_2(context.call((undefined(name='enum_stub') if l_0_enum_stub is missing else l_0_enum_stub), l_2_enum, (undefined(name='b') if l_1_b is missing else l_1_b), _loop_vars=_loop_vars), 4, first=True)),
                '\n',
            ))
            def t_13(fiter):
                for l_3_value in fiter:
                    if t_6(environment.getitem(l_3_value, 0)):
                        yield l_3_value
            for l_3_value in t_13(environment.getattr(l_2_enum, 'values')):
                _loop_vars = {}
                pass
                t_12.extend((
                    '    ',
                    str(environment.getitem(l_3_value, 0)),
                    ': ',
                    str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'ClassVar')),
                    '[',
                    str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'int')),
                    ']\n',
                ))
            l_3_value = missing
        l_2_enum = missing
        l_2_loop = missing
        for l_2_nested, l_2_loop in LoopContext(environment.getattr(l_1_message, 'nested'), undefined):
            _loop_vars = {}
            pass
            if (environment.getattr(l_1_message, 'enums') and environment.getattr(l_2_loop, 'first')):
                pass
                t_12.append(
                    '\n',
                )
            t_12.extend((
                str(t_2(context.call((undefined(name='message_stub') if l_0_message_stub is missing else l_0_message_stub), l_2_nested, (undefined(name='b') if l_1_b is missing else l_1_b), _loop_vars=_loop_vars), 4, first=True)),
                '\n',
            ))
        l_2_loop = l_2_nested = missing
        for l_2_ext in environment.getattr(l_1_message, 'extensions'):
            _loop_vars = {}
            pass
            t_12.extend((
                '    ',
                str(environment.getattr(l_2_ext, 'constant')),
                ': ',
                str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'ClassVar')),
                '[',
                str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'int')),
                ']\n',
            ))
            if environment.getattr(l_2_ext, 'plain'):
                pass
                t_12.extend((
                    '    ',
                    str(environment.getattr(l_2_ext, 'name')),
                    ': ',
                    str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'ClassVar')),
                    '[',
                    str(environment.getattr(l_2_ext, 'type')),
                    ']\n',
                ))
        l_2_ext = missing
        def t_14(fiter):
            for l_2_f in fiter:
                if environment.getattr(l_2_f, 'attribute'):
                    yield l_2_f
        for l_2_f in t_14(environment.getattr(l_1_message, 'fields')):
            _loop_vars = {}
            pass
            if environment.getattr(l_2_f, 'as_property'):
                pass
                t_12.extend((
                    '    @',
                    str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'property')),
                    '\n',
                ))
                if environment.getattr(l_2_f, 'deprecated'):
                    pass
                    t_12.extend((
                        '    @',
                        str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'deprecated')),
                        '(',
                        str(t_7(str_join((environment.getattr(l_2_f, 'name'), ' is deprecated ([deprecated = true] in the schema)', )))),
                        ')\n',
                    ))
                if environment.getattr(l_2_f, 'doc'):
                    pass
                    t_12.extend((
                        '    def ',
                        str(environment.getattr(l_2_f, 'name')),
                        '(self) -> ',
                        str(environment.getattr(l_2_f, 'get_type')),
                        ':\n        ',
                        str(t_1(environment.getattr(l_2_f, 'doc'), 8)),
                        '\n',
                    ))
                    if environment.getattr(l_2_f, 'blank_after_getter'):
                        pass
                        t_12.append(
                            '\n',
                        )
                else:
                    pass
                    t_12.extend((
                        '    def ',
                        str(environment.getattr(l_2_f, 'name')),
                        '(self) -> ',
                        str(environment.getattr(l_2_f, 'get_type')),
                        ': ...\n',
                    ))
                if environment.getattr(l_2_f, 'deprecated_setter'):
                    pass
                    t_12.extend((
                        '    @',
                        str(environment.getattr(l_2_f, 'name')),
                        '.setter\n    @',
                        str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'deprecated')),
                        '(',
                        str(t_7(str_join((environment.getattr(l_2_f, 'name'), ' is deprecated ([deprecated = true] in the schema)', )))),
                        ')\n    def ',
                        str(environment.getattr(l_2_f, 'name')),
                        '(self, value: ',
                        str(environment.getattr(l_2_f, 'get_type')),
                        ') -> None: ...\n',
                    ))
                if environment.getattr(l_2_f, 'blank_after'):
                    pass
                    t_12.append(
                        '\n',
                    )
            else:
                pass
                t_12.extend((
                    '    ',
                    str(environment.getattr(l_2_f, 'name')),
                    ': ',
                    str(environment.getattr(l_2_f, 'get_type')),
                    '\n',
                ))
                if environment.getattr(l_2_f, 'doc'):
                    pass
                    t_12.extend((
                        '    ',
                        str(t_1(environment.getattr(l_2_f, 'doc'))),
                        '\n',
                    ))
        l_2_f = missing
        t_12.extend((
            '    def __init__(\n        ',
            str(environment.getattr(l_1_message, 'self_name')),
            ',\n',
        ))
        if t_4(context.eval_ctx, t_8(context, t_5(context, t_5(context, environment.getattr(l_1_message, 'fields'), attribute='name'), 'plain_attribute'))):
            pass
            t_12.append(
                '        *,\n',
            )
        def t_15(fiter):
            for l_2_f in fiter:
                if t_6(environment.getattr(l_2_f, 'name')):
                    yield l_2_f
        for l_2_f in t_15(environment.getattr(l_1_message, 'fields')):
            _loop_vars = {}
            pass
            t_12.extend((
                '        ',
                str(environment.getattr(l_2_f, 'name')),
                ': ',
                str(environment.getattr(l_2_f, 'init_type')),
                ' = ...,\n',
            ))
        l_2_f = missing
        t_12.append(
            '    ) -> None: ...\n',
        )
        if environment.getattr(l_1_message, 'has_field_names'):
            pass
            t_12.extend((
                '    def HasField(self, field_name: ',
                str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'Literal')),
                '[',
                str(t_3(context.eval_ctx, t_5(context, environment.getattr(l_1_message, 'has_field_names'), 'pyrepr'), ', ')),
                ']) -> ',
                str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'bool')),
                ': ...\n',
            ))
        if environment.getattr(l_1_message, 'clear_field_names'):
            pass
            t_12.extend((
                '    def ClearField(self, field_name: ',
                str(environment.getattr((undefined(name='b') if l_1_b is missing else l_1_b), 'Literal')),
                '[',
                str(t_3(context.eval_ctx, t_5(context, environment.getattr(l_1_message, 'clear_field_names'), 'pyrepr'), ', ')),
                ']) -> None: ...\n',
            ))
        return concat(t_12)
    context.exported_vars.add('message_stub')
    context.vars['message_stub'] = l_0_message_stub = Macro(environment, macro, 'message_stub', ('message', 'outer'), False, False, False, context.eval_ctx.autoescape)
    for l_1_enum in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'enums'):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='enum_stub') if l_0_enum_stub is missing else l_0_enum_stub), l_1_enum, (undefined(name='n') if l_0_n is missing else l_0_n), _loop_vars=_loop_vars))
        yield '\n'
        def t_16(fiter):
            for l_2_value in fiter:
                if t_6(environment.getitem(l_2_value, 0)):
                    yield l_2_value
        for l_2_value in t_16(environment.getattr(l_1_enum, 'values')):
            _loop_vars = {}
            pass
            yield str(environment.getitem(l_2_value, 0))
            yield ': '
            yield str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'int'))
            yield '\n'
        l_2_value = missing
    l_1_enum = missing
    for l_1_message in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'messages'):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='message_stub') if l_0_message_stub is missing else l_0_message_stub), l_1_message, (undefined(name='n') if l_0_n is missing else l_0_n), _loop_vars=_loop_vars))
        yield '\n'
    l_1_message = missing

blocks = {}
debug_info = '1=70&2=78&4=80&11=84&13=86&14=88&15=91&16=95&17=97&21=102&22=111&24=118&25=127&28=138&29=146&30=149&31=154&32=158&35=161&36=165&37=168&38=177&41=187&43=190&46=196&48=200&49=205&50=212&51=216&54=224&55=231&56=235&57=238&58=242&60=247&61=251&62=255&63=258&67=267&69=272&70=276&71=278&72=282&74=287&78=296&79=301&80=305&85=311&86=314&89=319&90=328&93=337&94=341&96=348&97=352&100=360&101=363&102=365&103=372&106=378&107=381'
