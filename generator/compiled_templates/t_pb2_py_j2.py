# @generated from templates/pb2.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '52e758457cf748badcbdb4f96d6f0bc6c3e918111d6f5a6205a1eed87deae7a6'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'pb2.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_module = resolve('module')
    l_0_imports = resolve('imports')
    l_0_h = l_0_literals = missing
    try:
        t_1 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_2 = environment.filters['plain_attribute']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'plain_attribute' found.")
    try:
        t_3 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_4 = environment.filters['shown']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'shown' found.")
    pass
    included_template = environment.get_template('_header.j2', 'pb2.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'pb2.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    l_0_literals = context.vars['literals'] = environment.get_template('_literals.j2', 'pb2.py.j2')._get_default_module(context)
    context.exported_vars.discard('literals')
    yield str(t_1(str_join(('Protobuf classes of ``', t_4(environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'proto_file')), "``, in the package's descriptor pool.", )), 0))
    yield '\n\n'
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n'
    if environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'dependencies'):
        pass
        yield '\n# the files this one imports: their modules register them first\n_DEPENDENCIES = '
        def macro(l_1_dep):
            t_5 = []
            if l_1_dep is missing:
                l_1_dep = undefined("parameter 'dep' was not provided", name='dep')
            pass
            t_5.extend((
                '_',
                str(environment.getattr(l_1_dep, 'alias')),
            ))
            return concat(t_5)
        caller = Macro(environment, macro, None, ('dep',), False, False, False, context.eval_ctx.autoescape)
        yield context.call(environment.getattr((undefined(name='literals') if l_0_literals is missing else l_0_literals), 'tuple_of'), environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'dependencies'), caller=caller)
        yield '\n'
    yield '\nDESCRIPTOR = _add_file('
    yield str(t_3(environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'descriptor')))
    yield ')\n'
    for l_1_ext in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'extensions'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(environment.getattr(l_1_ext, 'constant'))
        yield ' = '
        yield str(environment.getattr(l_1_ext, 'number'))
        yield '\n'
        if environment.getattr(l_1_ext, 'plain'):
            pass
            yield str(environment.getattr(l_1_ext, 'name'))
            yield ' = DESCRIPTOR.extensions_by_name['
            yield str(t_3(environment.getattr(l_1_ext, 'name')))
            yield ']\n'
        else:
            pass
            yield 'globals()['
            yield str(t_3(environment.getattr(l_1_ext, 'name')))
            yield '] = DESCRIPTOR.extensions_by_name['
            yield str(t_3(environment.getattr(l_1_ext, 'name')))
            yield ']\n'
    l_1_ext = missing
    for l_1_enum in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'enums'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(environment.getattr(l_1_enum, 'pb2_path'))
        yield ' = _enum_type_wrapper.EnumTypeWrapper(_POOL.FindEnumTypeByName('
        yield str(t_3(environment.getattr(l_1_enum, 'full_name')))
        yield '))\n'
        for l_2_value in environment.getattr(l_1_enum, 'values'):
            _loop_vars = {}
            pass
            if t_2(environment.getitem(l_2_value, 0)):
                pass
                yield str(environment.getitem(l_2_value, 0))
                yield ' = '
                yield str(environment.getitem(l_2_value, 1))
                yield '\n'
            else:
                pass
                yield 'globals()['
                yield str(t_3(environment.getitem(l_2_value, 0)))
                yield '] = '
                yield str(environment.getitem(l_2_value, 1))
                yield '\n'
        l_2_value = missing
    l_1_enum = missing
    yield '\n'
    for l_1_message in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'messages'):
        _loop_vars = {}
        pass
        yield str(environment.getattr(l_1_message, 'name'))
        yield ' = _message_factory.GetMessageClass(_POOL.FindMessageTypeByName('
        yield str(t_3(environment.getattr(l_1_message, 'full_name')))
        yield '))\n'
    l_1_message = missing

blocks = {}
debug_info = '1=39&2=47&3=49&5=51&6=53&9=56&13=70&14=72&16=76&17=80&18=82&20=89&23=94&25=98&26=102&27=105&28=107&30=114&35=121&36=124'
