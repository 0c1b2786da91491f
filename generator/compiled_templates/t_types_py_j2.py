# @generated from templates/types.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = 'c822bdb3c6be223de4c40316e73c7e094c295737a81dbb7c8454a98834b72806'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'types.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_imports = resolve('imports')
    l_0_enums = resolve('enums')
    l_0_typed_dicts = resolve('typed_dicts')
    l_0_h = l_0_td_doc = missing
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
        t_3 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    included_template = environment.get_template('_header.j2', 'types.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'types.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    def macro(l_1_td, l_1_what):
        t_4 = []
        if l_1_td is missing:
            l_1_td = undefined("parameter 'td' was not provided", name='td')
        if l_1_what is missing:
            l_1_what = undefined("parameter 'what' was not provided", name='what')
        pass
        if (l_1_what == 'out'):
            pass
            t_4.extend((
                'Dict view of ``',
                str(environment.getattr(l_1_td, 'full_name')),
                '`` (every key present).\n',
            ))
            if environment.getattr(l_1_td, 'documented'):
                pass
                t_4.extend((
                    '\nThe message and its keys are documented on ``',
                    str(environment.getattr(l_1_td, 'in_name')),
                    '``.\n',
                ))
        else:
            pass
            t_4.extend((
                'Keys accepted for ``',
                str(environment.getattr(l_1_td, 'full_name')),
                '`` (any subset).\n',
            ))
            if environment.getattr(l_1_td, 'doc'):
                pass
                t_4.extend((
                    '\n',
                    str(environment.getattr(l_1_td, 'doc')),
                    '\n',
                ))
            if environment.getattr(l_1_td, 'functional'):
                pass
                def t_5(fiter):
                    for l_2_k in fiter:
                        if environment.getattr(l_2_k, 'doc'):
                            yield l_2_k
                for l_2_k in t_5(environment.getattr(l_1_td, 'keys')):
                    _loop_vars = {}
                    pass
                    t_4.extend((
                        '\n``',
                        str(environment.getattr(l_2_k, 'key')),
                        '``\n',
                        str(t_2(environment.getattr(l_2_k, 'doc'), 4, first=True)),
                        '\n',
                    ))
                l_2_k = missing
        return concat(t_4)
    context.exported_vars.add('td_doc')
    context.vars['td_doc'] = l_0_td_doc = Macro(environment, macro, 'td_doc', ('td', 'what'), False, False, False, context.eval_ctx.autoescape)
    yield '"""TypedDicts of every message and ``Literal`` names of every enum.\n\nFor each message ``X`` there are two:\n\n* ``XDict`` - what a config getter returns: every key present, repeated\n  fields as lists, nested messages as the protobuf message object.\n* ``XInput`` - what a config setter accepts (``total=False``): any subset of\n  keys, lists or tuples for repeated fields, dicts or messages for nested ones,\n  enum names or numbers. It carries the docs of the message and its keys.\n"""\n\n'
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n\n__all__ = [\n'
    for l_1_enum in (undefined(name='enums') if l_0_enums is missing else l_0_enums):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_3(environment.getattr(l_1_enum, 'literal_name')))
        yield ',\n'
    l_1_enum = missing
    for l_1_td in (undefined(name='typed_dicts') if l_0_typed_dicts is missing else l_0_typed_dicts):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_3(environment.getattr(l_1_td, 'out_name')))
        yield ',\n    '
        yield str(t_3(environment.getattr(l_1_td, 'in_name')))
        yield ',\n'
    l_1_td = missing
    yield ']\n'
    l_1_loop = missing
    for l_1_enum, l_1_loop in LoopContext((undefined(name='enums') if l_0_enums is missing else l_0_enums), undefined):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(environment.getattr(l_1_enum, 'literal_name'))
        yield ' = Literal['
        l_2_loop = missing
        for l_2_value, l_2_loop in LoopContext(environment.getattr(l_1_enum, 'values'), undefined):
            _loop_vars = {}
            pass
            yield str(t_3(environment.getitem(l_2_value, 0)))
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield ', '
        l_2_loop = l_2_value = missing
        yield ']\n'
        yield str(t_1(environment.getattr(l_1_enum, 'doc')))
        yield '\n'
    l_1_loop = l_1_enum = missing
    for l_1_td in (undefined(name='typed_dicts') if l_0_typed_dicts is missing else l_0_typed_dicts):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_td, 'functional'):
            pass
            yield '\n'
            yield str(environment.getattr(l_1_td, 'out_name'))
            yield ' = TypedDict(\n    '
            yield str(t_3(environment.getattr(l_1_td, 'out_name')))
            yield ',\n    {\n'
            for l_2_key in environment.getattr(l_1_td, 'keys'):
                _loop_vars = {}
                pass
                yield '        '
                yield str(t_3(environment.getattr(l_2_key, 'key')))
                yield ': '
                yield str(t_3(environment.getattr(l_2_key, 'out_type')))
                yield ',\n'
            l_2_key = missing
            yield '    },\n)\n'
            yield str(t_1(context.call((undefined(name='td_doc') if l_0_td_doc is missing else l_0_td_doc), l_1_td, 'out', _loop_vars=_loop_vars), 0))
            yield '\n'
            yield str(environment.getattr(l_1_td, 'in_name'))
            yield ' = TypedDict(\n    '
            yield str(t_3(environment.getattr(l_1_td, 'in_name')))
            yield ',\n    {\n'
            for l_2_key in environment.getattr(l_1_td, 'keys'):
                _loop_vars = {}
                pass
                yield '        '
                yield str(t_3(environment.getattr(l_2_key, 'key')))
                yield ': '
                yield str(t_3(environment.getattr(l_2_key, 'in_type')))
                yield ',\n'
            l_2_key = missing
            yield '    },\n    total=False,\n)\n'
            yield str(t_1(context.call((undefined(name='td_doc') if l_0_td_doc is missing else l_0_td_doc), l_1_td, 'in', _loop_vars=_loop_vars), 0))
            yield '\n'
        else:
            pass
            yield '\n\nclass '
            yield str(environment.getattr(l_1_td, 'out_name'))
            yield '(TypedDict):\n    '
            yield str(t_1(context.call((undefined(name='td_doc') if l_0_td_doc is missing else l_0_td_doc), l_1_td, 'out', _loop_vars=_loop_vars)))
            yield '\n\n'
            for l_2_key in environment.getattr(l_1_td, 'keys'):
                _loop_vars = {}
                pass
                yield '    '
                yield str(environment.getattr(l_2_key, 'key'))
                yield ': '
                yield str(environment.getattr(l_2_key, 'out_annotation'))
                yield '\n'
            l_2_key = missing
            if (not environment.getattr(l_1_td, 'keys')):
                pass
                yield '    pass\n'
            yield '\n\nclass '
            yield str(environment.getattr(l_1_td, 'in_name'))
            yield '(TypedDict, total=False):\n    '
            yield str(t_1(context.call((undefined(name='td_doc') if l_0_td_doc is missing else l_0_td_doc), l_1_td, 'in', _loop_vars=_loop_vars)))
            yield '\n\n'
            for l_2_key in environment.getattr(l_1_td, 'keys'):
                _loop_vars = {}
                pass
                yield '    '
                yield str(environment.getattr(l_2_key, 'key'))
                yield ': '
                yield str(environment.getattr(l_2_key, 'in_annotation'))
                yield '\n'
                if environment.getattr(l_2_key, 'doc'):
                    pass
                    yield '    '
                    yield str(t_1(environment.getattr(l_2_key, 'doc')))
                    yield '\n'
            l_2_key = missing
            if (not environment.getattr(l_1_td, 'keys')):
                pass
                yield '    pass\n'
    l_1_td = missing

blocks = {}
debug_info = '1=34&6=42&7=49&8=53&9=56&11=60&14=67&15=70&17=74&19=77&20=79&22=88&23=90&39=98&42=100&43=104&45=107&46=111&47=113&50=118&52=122&53=134&55=137&56=140&58=143&59=145&61=147&62=151&66=157&67=159&68=161&70=163&71=167&76=173&80=178&81=180&83=182&84=186&86=191&91=195&92=197&94=199&95=203&96=207&97=210&100=213'
