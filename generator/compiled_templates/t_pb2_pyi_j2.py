# @generated from templates/pb2.pyi.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '4a0f6ce52d26500a92c816703c5dd7fcaef9f9fcd2b3d2ca6d291da2bb494d9e'
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
    l_0_h = l_0_pb2_import = l_0_enum_stub = l_0_message_stub = missing
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
    included_template = environment.get_template('_imports.j2', 'pb2.pyi.j2')._get_default_module(context)
    l_0_pb2_import = getattr(included_template, 'pb2_import', missing)
    if l_0_pb2_import is missing:
        l_0_pb2_import = undefined(f"the template {included_template.__name__!r} (imported on line 2 in 'pb2.pyi.j2') does not export the requested name 'pb2_import'", name='pb2_import')
    context.vars['pb2_import'] = l_0_pb2_import
    context.exported_vars.discard('pb2_import')
    t_10 = []
    pass
    t_10.extend((
        'Type stubs of ``',
        str(t_9(environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'proto_file'))),
        "``'s protobuf classes.\n",
    ))
    if environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'services'):
        pass
        t_10.append(
            '\nServices (no code is generated for them; their descriptors are in\n``DESCRIPTOR.services_by_name``):\n',
        )
        for l_2_service in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'services'):
            _loop_vars = {}
            pass
            t_10.extend((
                '\n``',
                str(environment.getattr(l_2_service, 'name')),
                '``\n',
            ))
            if environment.getattr(l_2_service, 'doc'):
                pass
                t_10.extend((
                    str(t_2(environment.getattr(l_2_service, 'doc'), 4, first=True)),
                    '\n',
                ))
            for l_3_m in environment.getattr(l_2_service, 'methods'):
                _loop_vars = {}
                pass
                t_10.extend((
                    '\n    ``',
                    str(environment.getattr(l_3_m, 'name')),
                    '(',
                    str(('stream ' if environment.getattr(l_3_m, 'client_streaming') else cond_expr_undefined("the inline if-expression on line 17 in 'pb2.pyi.j2' evaluated to false and no else section was defined."))),
                    str(environment.getattr(l_3_m, 'input_type')),
                    ') -> ',
                    str(('stream ' if environment.getattr(l_3_m, 'server_streaming') else cond_expr_undefined("the inline if-expression on line 17 in 'pb2.pyi.j2' evaluated to false and no else section was defined."))),
                    str(environment.getattr(l_3_m, 'output_type')),
                    '``\n',
                ))
                if environment.getattr(l_3_m, 'doc'):
                    pass
                    t_10.extend((
                        str(t_2(environment.getattr(l_3_m, 'doc'), 8, first=True)),
                        '\n',
                    ))
            l_3_m = missing
        l_2_service = missing
    yield t_1(concat(t_10), 0)
    yield '\n\n# builtins and typing names under private aliases: a field or message may be\n# named int, property, Mapping, ...\nimport builtins as _builtins\nfrom collections.abc import Iterable as _Iterable\n'
    if environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'uses_maps'):
        pass
        yield 'from collections.abc import Mapping as _Mapping\n'
    yield 'from typing import ClassVar as _ClassVar\nfrom typing import Literal as _Literal\n'
    if environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'uses_deprecated'):
        pass
        yield '\nfrom typing_extensions import deprecated as _deprecated\n'
    yield '\nfrom google.protobuf import descriptor as _descriptor\nfrom google.protobuf import message as _message\nfrom google.protobuf.internal import containers as _containers\nfrom google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper\n'
    for l_1_dep in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'dependencies'):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='pb2_import') if l_0_pb2_import is missing else l_0_pb2_import), l_1_dep, _loop_vars=_loop_vars))
        yield '\n'
    l_1_dep = missing
    yield '\nDESCRIPTOR: _descriptor.FileDescriptor\n'
    for l_1_ext in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'extensions'):
        _loop_vars = {}
        pass
        yield str(environment.getattr(l_1_ext, 'constant'))
        yield ': _builtins.int\n'
        if environment.getattr(l_1_ext, 'plain'):
            pass
            yield str(environment.getattr(l_1_ext, 'name'))
            yield ': _descriptor.FieldDescriptor\n'
        if environment.getattr(l_1_ext, 'doc'):
            pass
            yield str(t_1(environment.getattr(l_1_ext, 'doc'), 0))
            yield '\n'
    l_1_ext = missing
    def macro(l_1_enum):
        t_11 = []
        if l_1_enum is missing:
            l_1_enum = undefined("parameter 'enum' was not provided", name='enum')
        pass
        t_11.extend((
            'class ',
            str(environment.getitem(context.call(environment.getattr(environment.getattr(l_1_enum, 'pb2_path'), 'rsplit'), '.', 1), -1)),
            '(_builtins.int, metaclass=_enum_type_wrapper.EnumTypeWrapper):\n',
        ))
        if environment.getattr(l_1_enum, 'stub_doc'):
            pass
            t_11.extend((
                '    ',
                str(t_1(environment.getattr(l_1_enum, 'stub_doc'))),
                '\n\n',
            ))
        t_11.append(
            '    __slots__ = ()\n',
        )
        def t_12(fiter):
            for l_2_value in fiter:
                if t_6(environment.getitem(l_2_value, 0)):
                    yield l_2_value
        for l_2_value in t_12(environment.getattr(l_1_enum, 'values')):
            _loop_vars = {}
            pass
            t_11.extend((
                '    ',
                str(environment.getitem(l_2_value, 0)),
                ': _ClassVar[_builtins.int]\n',
            ))
            if environment.getitem(l_2_value, 2):
                pass
                t_11.extend((
                    '    ',
                    str(t_1(environment.getitem(l_2_value, 2))),
                    '\n',
                ))
        l_2_value = missing
        return concat(t_11)
    context.exported_vars.add('enum_stub')
    context.vars['enum_stub'] = l_0_enum_stub = Macro(environment, macro, 'enum_stub', ('enum',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_message):
        t_13 = []
        if l_1_message is missing:
            l_1_message = undefined("parameter 'message' was not provided", name='message')
        pass
        t_13.extend((
            'class ',
            str(environment.getattr(l_1_message, 'name')),
            '(_message.Message):\n',
        ))
        if environment.getattr(l_1_message, 'doc'):
            pass
            t_13.extend((
                '    ',
                str(t_1(environment.getattr(l_1_message, 'doc'))),
                '\n\n',
            ))
        for l_2_enum in environment.getattr(l_1_message, 'enums'):
            _loop_vars = {}
            pass
            t_13.extend((
                str(t_2(context.call((undefined(name='enum_stub') if l_0_enum_stub is missing else l_0_enum_stub), l_2_enum, _loop_vars=_loop_vars), 4, first=True)),
                '\n',
            ))
            def t_14(fiter):
                for l_3_value in fiter:
                    if t_6(environment.getitem(l_3_value, 0)):
                        yield l_3_value
            for l_3_value in t_14(environment.getattr(l_2_enum, 'values')):
                _loop_vars = {}
                pass
                t_13.extend((
                    '    ',
                    str(environment.getitem(l_3_value, 0)),
                    ': _ClassVar[_builtins.int]\n',
                ))
                if environment.getitem(l_3_value, 2):
                    pass
                    t_13.extend((
                        '    ',
                        str(t_1(environment.getitem(l_3_value, 2))),
                        '\n',
                    ))
            l_3_value = missing
        l_2_enum = missing
        l_2_loop = missing
        for l_2_nested, l_2_loop in LoopContext(environment.getattr(l_1_message, 'nested'), undefined):
            _loop_vars = {}
            pass
            if (environment.getattr(l_1_message, 'enums') and environment.getattr(l_2_loop, 'first')):
                pass
                t_13.append(
                    '\n',
                )
            t_13.extend((
                str(t_2(context.call((undefined(name='message_stub') if l_0_message_stub is missing else l_0_message_stub), l_2_nested, _loop_vars=_loop_vars), 4, first=True)),
                '\n',
            ))
        l_2_loop = l_2_nested = missing
        for l_2_ext in environment.getattr(l_1_message, 'extensions'):
            _loop_vars = {}
            pass
            t_13.extend((
                '    ',
                str(environment.getattr(l_2_ext, 'constant')),
                ': _ClassVar[_builtins.int]\n',
            ))
            if environment.getattr(l_2_ext, 'plain'):
                pass
                t_13.extend((
                    '    ',
                    str(environment.getattr(l_2_ext, 'name')),
                    ': _ClassVar[_descriptor.FieldDescriptor]\n',
                ))
            if environment.getattr(l_2_ext, 'doc'):
                pass
                t_13.extend((
                    '    ',
                    str(t_1(environment.getattr(l_2_ext, 'doc'))),
                    '\n',
                ))
        l_2_ext = missing
        def t_15(fiter):
            for l_2_f in fiter:
                if t_6(environment.getattr(l_2_f, 'name')):
                    yield l_2_f
        for l_2_f in t_15(environment.getattr(l_1_message, 'fields')):
            _loop_vars = {}
            pass
            if environment.getattr(l_2_f, 'as_property'):
                pass
                t_13.append(
                    '    @_builtins.property\n',
                )
                if environment.getattr(l_2_f, 'deprecated'):
                    pass
                    t_13.extend((
                        '    @_deprecated(',
                        str(t_7(str_join((environment.getattr(l_2_f, 'name'), ' is deprecated ([deprecated = true] in the schema)', )))),
                        ')\n',
                    ))
                if environment.getattr(l_2_f, 'doc'):
                    pass
                    t_13.extend((
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
                        t_13.append(
                            '\n',
                        )
                else:
                    pass
                    t_13.extend((
                        '    def ',
                        str(environment.getattr(l_2_f, 'name')),
                        '(self) -> ',
                        str(environment.getattr(l_2_f, 'get_type')),
                        ': ...\n',
                    ))
                if environment.getattr(l_2_f, 'deprecated_setter'):
                    pass
                    t_13.extend((
                        '    @',
                        str(environment.getattr(l_2_f, 'name')),
                        '.setter\n    @_deprecated(',
                        str(t_7(str_join((environment.getattr(l_2_f, 'name'), ' is deprecated ([deprecated = true] in the schema)', )))),
                        ')\n    def ',
                        str(environment.getattr(l_2_f, 'name')),
                        '(self, value: ',
                        str(environment.getattr(l_2_f, 'get_type')),
                        ') -> None: ...\n',
                    ))
                if environment.getattr(l_2_f, 'blank_after'):
                    pass
                    t_13.append(
                        '\n',
                    )
            else:
                pass
                t_13.extend((
                    '    ',
                    str(environment.getattr(l_2_f, 'name')),
                    ': ',
                    str(environment.getattr(l_2_f, 'get_type')),
                    '\n',
                ))
                if environment.getattr(l_2_f, 'doc'):
                    pass
                    t_13.extend((
                        '    ',
                        str(t_1(environment.getattr(l_2_f, 'doc'))),
                        '\n',
                    ))
        l_2_f = missing
        t_13.extend((
            '    def __init__(\n        ',
            str(environment.getattr(l_1_message, 'self_name')),
            ',\n',
        ))
        if t_4(context.eval_ctx, t_8(context, t_5(context, t_5(context, environment.getattr(l_1_message, 'fields'), attribute='name'), 'plain_attribute'))):
            pass
            t_13.append(
                '        *,\n',
            )
        def t_16(fiter):
            for l_2_f in fiter:
                if t_6(environment.getattr(l_2_f, 'name')):
                    yield l_2_f
        for l_2_f in t_16(environment.getattr(l_1_message, 'fields')):
            _loop_vars = {}
            pass
            t_13.extend((
                '        ',
                str(environment.getattr(l_2_f, 'name')),
                ': ',
                str(environment.getattr(l_2_f, 'init_type')),
                ' = ...,\n',
            ))
        l_2_f = missing
        t_13.append(
            '    ) -> None: ...\n',
        )
        if environment.getattr(l_1_message, 'has_field_names'):
            pass
            t_13.extend((
                '    def HasField(self, field_name: _Literal[',
                str(t_3(context.eval_ctx, t_5(context, environment.getattr(l_1_message, 'has_field_names'), 'pyrepr'), ', ')),
                ']) -> _builtins.bool: ...\n',
            ))
        if environment.getattr(l_1_message, 'clear_field_names'):
            pass
            t_13.extend((
                '    def ClearField(self, field_name: _Literal[',
                str(t_3(context.eval_ctx, t_5(context, environment.getattr(l_1_message, 'clear_field_names'), 'pyrepr'), ', ')),
                ']) -> None: ...\n',
            ))
        return concat(t_13)
    context.exported_vars.add('message_stub')
    context.vars['message_stub'] = l_0_message_stub = Macro(environment, macro, 'message_stub', ('message',), False, False, False, context.eval_ctx.autoescape)
    for l_1_enum in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'enums'):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='enum_stub') if l_0_enum_stub is missing else l_0_enum_stub), l_1_enum, _loop_vars=_loop_vars))
        yield '\n'
        def t_17(fiter):
            for l_2_value in fiter:
                if t_6(environment.getitem(l_2_value, 0)):
                    yield l_2_value
        for l_2_value in t_17(environment.getattr(l_1_enum, 'values')):
            _loop_vars = {}
            pass
            yield str(environment.getitem(l_2_value, 0))
            yield ': _builtins.int\n'
            if environment.getitem(l_2_value, 2):
                pass
                yield str(t_1(environment.getitem(l_2_value, 2), 0))
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
debug_info = '1=68&2=76&4=86&5=89&9=94&11=99&12=102&13=105&15=108&17=113&18=122&19=125&3=130&31=132&36=136&45=140&46=143&50=147&51=150&52=152&53=154&55=156&56=158&59=161&60=168&61=171&62=175&66=181&67=190&68=193&69=197&73=204&74=211&75=214&76=218&79=221&80=225&81=228&82=237&83=240&84=244&88=250&90=253&93=259&95=263&96=268&97=271&98=275&100=278&101=282&104=286&105=293&107=298&108=302&110=305&111=309&112=313&113=316&117=325&119=330&120=334&121=336&122=338&124=343&128=352&129=357&130=361&135=367&136=370&139=375&140=384&143=393&144=397&146=400&147=404&150=410&151=413&152=415&153=422&154=424&155=426&159=430&160=433'
