# @generated from templates/__init__.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = 'c0c73f14bc80a5ccc7ddc978f2ce4d09d4f8111c67f38d088bffea4289fca98c'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '__init__.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_imports = resolve('imports')
    l_0_exports = resolve('exports')
    l_0_h = missing
    try:
        t_1 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_2 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    included_template = environment.get_template('_header.j2', '__init__.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '__init__.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    l_1_package = resolve('package')
    l_1_classes = resolve('classes')
    l_1_strict_env = resolve('strict_env')
    t_3 = []
    pass
    t_3.extend((
        str((undefined(name='package') if l_1_package is missing else l_1_package)),
        ': typed API generated from the protobuf schema and its annotations.\n\n',
    ))
    for l_2_cls in (undefined(name='classes') if l_1_classes is missing else l_1_classes):
        _loop_vars = {}
        pass
        t_3.extend((
            '* ``',
            str(environment.getattr(l_2_cls, 'name')),
            '`` - ',
            str(environment.getattr(environment.getattr(l_2_cls, 'doc'), 'summary')),
            '\n',
        ))
    l_2_cls = missing
    t_3.extend((
        '\nStrict validation: ``set_default_strict(True)`` (or ``',
        str((undefined(name='strict_env') if l_1_strict_env is missing else l_1_strict_env)),
        '=1``) for\ninstances created afterwards, or ``strict=True`` per instance.\nTypedDicts of every message: ``',
        str((undefined(name='package') if l_1_package is missing else l_1_package)),
        '.types``.\n',
    ))
    yield t_1(concat(t_3), 0)
    l_1_package = l_1_classes = l_1_strict_env = missing
    yield '\n\n'
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n\n__all__ = [\n'
    for l_1_name in (undefined(name='exports') if l_0_exports is missing else l_0_exports):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_2(l_1_name))
        yield ',\n'
    l_1_name = missing
    yield '    "UnknownConfigKeyError",\n    "default_strict",\n    "set_default_strict",\n]\n'

blocks = {}
debug_info = '1=27&3=41&5=44&6=49&9=57&11=59&2=62&15=65&18=67&19=71'
