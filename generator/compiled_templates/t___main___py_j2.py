# @generated from templates/__main__.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '967126bdd023836fb6181bf7c893962add00d1c26df2097fc1dff7916d7ef70c'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '__main__.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_package = resolve('package')
    l_0_imports = resolve('imports')
    l_0_classes = resolve('classes')
    l_0_h = missing
    try:
        t_1 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    included_template = environment.get_template('_header.j2', '__main__.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '__main__.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n"""``python -m '
    yield str((undefined(name='package') if l_0_package is missing else l_0_package))
    yield ' lint FILE [--world-size N] [--format json]``.\n\nChecks a text-format strategy file (as ``save_to_prototxt`` writes it)\nagainst the rules between its fields: exit 0 when clean, 1 with findings,\n2 for a file that cannot be read or parsed.\n"""\n\n'
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n\n# name -> (class, the attribute holding its message); the first is the default\nCLASSES = {\n'
    for l_1_cls in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_1(environment.getattr(l_1_cls, 'name')))
        yield ': ('
        yield str(environment.getattr(l_1_cls, 'name'))
        yield ', '
        yield str(t_1(environment.getattr(l_1_cls, 'message_attribute')))
        yield '),\n'
    l_1_cls = missing
    yield '}\n\nif __name__ == "__main__":\n    sys.exit(main(None, CLASSES, prog='
    yield str(t_1(str_join(('python -m ', (undefined(name='package') if l_0_package is missing else l_0_package), ))))
    yield '))\n'

blocks = {}
debug_info = '1=22&2=30&9=32&13=34&14=38&19=46'
