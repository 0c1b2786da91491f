# @generated from templates/pb2.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '37ef8ba33bf1082d5710a305c8551bc9c132e59f35398c6a90190bde8126a0f5'
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
    l_0_package = resolve('package')
    l_0_h = l_0_pb2_import_for_effect = missing
    try:
        t_1 = environment.filters['plain_attribute']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'plain_attribute' found.")
    try:
        t_2 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    included_template = environment.get_template('_header.j2', 'pb2.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'pb2.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    included_template = environment.get_template('_imports.j2', 'pb2.py.j2')._get_default_module(context)
    l_0_pb2_import_for_effect = getattr(included_template, 'pb2_import_for_effect', missing)
    if l_0_pb2_import_for_effect is missing:
        l_0_pb2_import_for_effect = undefined(f"the template {included_template.__name__!r} (imported on line 2 in 'pb2.py.j2') does not export the requested name 'pb2_import_for_effect'", name='pb2_import_for_effect')
    context.vars['pb2_import_for_effect'] = l_0_pb2_import_for_effect
    context.exported_vars.discard('pb2_import_for_effect')
    yield '"""Protobuf classes of ``'
    yield str(environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'proto_file'))
    yield '``, in the package\'s descriptor pool."""\n\nfrom google.protobuf import message_factory as _message_factory\nfrom google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper\n\nfrom '
    yield str((undefined(name='package') if l_0_package is missing else l_0_package))
    yield '._pool import POOL as _POOL, add_file as _add_file\n'
    if environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'dependencies'):
        pass
        yield '\n# the files this one imports: their modules register them first\n'
        for l_1_dep in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'dependencies'):
            _loop_vars = {}
            pass
            yield str(context.call((undefined(name='pb2_import_for_effect') if l_0_pb2_import_for_effect is missing else l_0_pb2_import_for_effect), l_1_dep, _loop_vars=_loop_vars))
            yield '\n'
        l_1_dep = missing
    yield '\nDESCRIPTOR = _add_file('
    yield str(t_2(environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'descriptor')))
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
            yield str(t_2(environment.getattr(l_1_ext, 'name')))
            yield ']\n'
        else:
            pass
            yield 'globals()['
            yield str(t_2(environment.getattr(l_1_ext, 'name')))
            yield '] = DESCRIPTOR.extensions_by_name['
            yield str(t_2(environment.getattr(l_1_ext, 'name')))
            yield ']\n'
    l_1_ext = missing
    for l_1_enum in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'enums'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(environment.getattr(l_1_enum, 'pb2_path'))
        yield ' = _enum_type_wrapper.EnumTypeWrapper(_POOL.FindEnumTypeByName('
        yield str(t_2(environment.getattr(l_1_enum, 'full_name')))
        yield '))\n'
        for l_2_value in environment.getattr(l_1_enum, 'values'):
            _loop_vars = {}
            pass
            if t_1(environment.getitem(l_2_value, 0)):
                pass
                yield str(environment.getitem(l_2_value, 0))
                yield ' = '
                yield str(environment.getitem(l_2_value, 1))
                yield '\n'
            else:
                pass
                yield 'globals()['
                yield str(t_2(environment.getitem(l_2_value, 0)))
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
        yield str(t_2(environment.getattr(l_1_message, 'full_name')))
        yield '))\n'
    l_1_message = missing

blocks = {}
debug_info = '1=27&2=35&3=42&8=44&9=46&12=49&13=52&17=56&18=58&20=62&21=66&22=68&24=75&27=80&29=84&30=88&31=91&32=93&34=100&39=107&40=110'
