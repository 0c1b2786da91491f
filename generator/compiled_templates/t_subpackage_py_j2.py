# @generated from templates/subpackage.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '8ab7d642433f08cf7ca98b52c0350fbe13e7ae5b5f37893f1f3d5227b2300441'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'subpackage.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_folder = resolve('folder')
    l_0_h = missing
    pass
    included_template = environment.get_template('_header.j2', 'subpackage.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'subpackage.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n"""The modules generated from the ``.proto`` files in ``'
    yield str((undefined(name='folder') if l_0_folder is missing else l_0_folder))
    yield '/``."""\n'

blocks = {}
debug_info = '1=14&2=22'
