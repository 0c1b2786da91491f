# @generated from templates/pb2.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '68903793931e4093564acfc345c017aa3aad73711be152d608e89241fb970f3e'
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
    included_template = environment.get_template('_imports.j2', 'pb2.py.j2')._get_default_module(context)
    l_0_pb2_import_for_effect = getattr(included_template, 'pb2_import_for_effect', missing)
    if l_0_pb2_import_for_effect is missing:
        l_0_pb2_import_for_effect = undefined(f"the template {included_template.__name__!r} (imported on line 2 in 'pb2.py.j2') does not export the requested name 'pb2_import_for_effect'", name='pb2_import_for_effect')
    context.vars['pb2_import_for_effect'] = l_0_pb2_import_for_effect
    context.exported_vars.discard('pb2_import_for_effect')
    yield str(t_1(str_join(('Protobuf classes of ``', t_4(environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'proto_file')), "``, in the package's descriptor pool.", )), 0))
    yield '\n\nfrom google.protobuf import message_factory as _message_factory\nfrom google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper\n\nfrom '
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
debug_info = '1=39&2=47&3=53&8=55&9=57&12=60&13=63&17=67&18=69&20=73&21=77&22=79&24=86&27=91&29=95&30=99&31=102&32=104&34=111&39=118&40=121'
