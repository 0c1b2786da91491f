# @generated from templates/_pool.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '076bce00948c6ed805d8069de0e0eaeba269086ea1bbe19e189f50db783c1d44'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_pool.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_default_pool = resolve('default_pool')
    l_0_h = missing
    pass
    included_template = environment.get_template('_header.j2', '_pool.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '_pool.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    if (undefined(name='default_pool') if l_0_default_pool is missing else l_0_default_pool):
        pass
        yield '"""The descriptor pool every generated ``*_pb2`` module registers its file in.\n\nprotobuf\'s default pool, as protoc\'s modules use: the schema imports files\nthis package does not generate (well-known types), whose standard modules\nregister them there, and a message can only use types of its own pool. So\nfield values are the standard classes (``timestamp_pb2.Timestamp``, ...).\n"""\n\nfrom google.protobuf import descriptor_pool\n\nPOOL = descriptor_pool.Default()\n'
    else:
        pass
        yield '"""The descriptor pool every generated ``*_pb2`` module registers its file in.\n\nA private pool instead of protobuf\'s default one: another copy of the same\nschema (protoc\'s modules, or another library\'s) may register the same\nmessage names in the default pool, and two files defining one name in one\npool is an error. With a pool of its own, this package imports side by side\nwith them; text and wire formats are unaffected. (A schema that imports\nwell-known types uses the default pool instead, as their standard classes\nlive there.)\n"""\n\nfrom google.protobuf import descriptor_pool\n\nPOOL = descriptor_pool.DescriptorPool()\n'
    yield '\n\ndef add_file(serialized: bytes):  # type: ignore[no-untyped-def]\n    """Add a serialized FileDescriptorProto unless that file is in already\n    (a different file of the same name is an error, never silently shared)."""\n    from google.protobuf import descriptor_pb2\n\n    proto = descriptor_pb2.FileDescriptorProto.FromString(serialized)\n    try:\n        existing = POOL.FindFileByName(proto.name)\n    except KeyError:\n        return POOL.AddSerializedFile(serialized)\n    if descriptor_pb2.FileDescriptorProto.FromString(existing.serialized_pb) != proto:\n        raise TypeError(\n            f"{proto.name}: a different file of that name is already in the descriptor pool"\n        )\n    return existing\n'

blocks = {}
debug_info = '1=14&2=22'
