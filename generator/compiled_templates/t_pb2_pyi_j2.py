# @generated from templates/pb2.pyi.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '41a927cffff5955530d03b1ba8f77309de36f10dfdf3c47646d93591f0a88baa'
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
    def macro(l_1_enum):
        t_10 = []
        if l_1_enum is missing:
            l_1_enum = undefined("parameter 'enum' was not provided", name='enum')
        pass
        t_10.extend((
            'class ',
            str(environment.getitem(context.call(environment.getattr(environment.getattr(l_1_enum, 'pb2_path'), 'rsplit'), '.', 1), -1)),
            '(',
            str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'int')),
            ', metaclass=',
            str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'EnumTypeWrapper')),
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
    context.vars['enum_stub'] = l_0_enum_stub = Macro(environment, macro, 'enum_stub', ('enum',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_message):
        t_12 = []
        if l_1_message is missing:
            l_1_message = undefined("parameter 'message' was not provided", name='message')
        pass
        t_12.extend((
            'class ',
            str(environment.getattr(l_1_message, 'name')),
            '(',
            str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'Message')),
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
                str(t_2(context.call((undefined(name='enum_stub') if l_0_enum_stub is missing else l_0_enum_stub), l_2_enum, _loop_vars=_loop_vars), 4, first=True)),
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
                    str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'ClassVar')),
                    '[',
                    str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'int')),
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
                str(t_2(context.call((undefined(name='message_stub') if l_0_message_stub is missing else l_0_message_stub), l_2_nested, _loop_vars=_loop_vars), 4, first=True)),
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
                str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'ClassVar')),
                '[',
                str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'int')),
                ']\n',
            ))
            if environment.getattr(l_2_ext, 'plain'):
                pass
                t_12.extend((
                    '    ',
                    str(environment.getattr(l_2_ext, 'name')),
                    ': ',
                    str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'ClassVar')),
                    '[',
                    str(environment.getattr(l_2_ext, 'type')),
                    ']\n',
                ))
        l_2_ext = missing
        def t_14(fiter):
            for l_2_f in fiter:
                if t_6(environment.getattr(l_2_f, 'name')):
                    yield l_2_f
        for l_2_f in t_14(environment.getattr(l_1_message, 'fields')):
            _loop_vars = {}
            pass
            if environment.getattr(l_2_f, 'as_property'):
                pass
                t_12.extend((
                    '    @',
                    str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'property')),
                    '\n',
                ))
                if environment.getattr(l_2_f, 'deprecated'):
                    pass
                    t_12.extend((
                        '    @',
                        str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'deprecated')),
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
                        str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'deprecated')),
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
                str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'Literal')),
                '[',
                str(t_3(context.eval_ctx, t_5(context, environment.getattr(l_1_message, 'has_field_names'), 'pyrepr'), ', ')),
                ']) -> ',
                str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'bool')),
                ': ...\n',
            ))
        if environment.getattr(l_1_message, 'clear_field_names'):
            pass
            t_12.extend((
                '    def ClearField(self, field_name: ',
                str(environment.getattr((undefined(name='n') if l_0_n is missing else l_0_n), 'Literal')),
                '[',
                str(t_3(context.eval_ctx, t_5(context, environment.getattr(l_1_message, 'clear_field_names'), 'pyrepr'), ', ')),
                ']) -> None: ...\n',
            ))
        return concat(t_12)
    context.exported_vars.add('message_stub')
    context.vars['message_stub'] = l_0_message_stub = Macro(environment, macro, 'message_stub', ('message',), False, False, False, context.eval_ctx.autoescape)
    for l_1_enum in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'enums'):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='enum_stub') if l_0_enum_stub is missing else l_0_enum_stub), l_1_enum, _loop_vars=_loop_vars))
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
        yield str(context.call((undefined(name='message_stub') if l_0_message_stub is missing else l_0_message_stub), l_1_message, _loop_vars=_loop_vars))
        yield '\n'
    l_1_message = missing

blocks = {}
debug_info = '1=70&2=78&4=80&11=84&13=86&14=88&15=91&16=95&17=97&20=102&21=109&23=116&24=125&27=136&28=143&29=148&30=152&33=155&34=159&35=162&36=171&39=181&41=184&44=190&46=194&47=199&48=206&49=210&52=218&53=225&54=229&55=232&56=236&58=241&59=245&60=249&61=252&65=261&67=266&68=270&69=272&70=276&72=281&76=290&77=295&78=299&83=305&84=308&87=313&88=322&91=331&92=335&94=342&95=346&98=354&99=357&100=359&101=366&104=372&105=375'
