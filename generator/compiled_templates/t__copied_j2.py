# @generated from templates/_copied.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '11c7a2a31e4ad7825eb58b4326b6c494b87bb2efac8e36c4798885705b2d5514'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_copied.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_source = resolve('source')
    l_0_text = resolve('text')
    l_0_h = missing
    pass
    included_template = environment.get_template('_header.j2', '_copied.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '_copied.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n# A copy of '
    yield str((undefined(name='source') if l_0_source is missing else l_0_source))
    yield ': edit that file, then regenerate.\n'
    yield str((undefined(name='text') if l_0_text is missing else l_0_text))

blocks = {}
debug_info = '1=15&2=23&3=25'
