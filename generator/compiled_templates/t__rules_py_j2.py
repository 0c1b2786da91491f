# @generated from templates/_rules.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '0da52b8a3c38d4d0d6bd2cd3d2dfdfef32be25c4a9135521ea8dc52abe5518cf'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_rules.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_package = resolve('package')
    l_0_rules = resolve('rules')
    l_0_h = l_0_words = missing
    try:
        t_1 = environment.filters['groupby']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'groupby' found.")
    try:
        t_2 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_3 = environment.filters['pyrepr_laid_out']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr_laid_out' found.")
    try:
        t_4 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    included_template = environment.get_template('_header.j2', '_rules.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '_rules.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    l_0_words = context.vars['words'] = environment.get_template('_rules.j2', '_rules.py.j2')._get_default_module(context)
    context.exported_vars.discard('words')
    yield '"""The rules between fields (the annotations\' ``rules:``), as data ``lint`` evaluates."""\n\nfrom __future__ import annotations\n\nfrom '
    yield str((undefined(name='package') if l_0_package is missing else l_0_package))
    yield '.lint import Rule\n\nRULES: dict[str, tuple[Rule, ...]] = {\n'
    for (l_1_message, l_1_rules) in t_1(environment, (undefined(name='rules') if l_0_rules is missing else l_0_rules), 'message'):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_2(l_1_message))
        yield ': (\n'
        for l_2_rule in l_1_rules:
            _loop_vars = {}
            pass
            yield '        Rule(\n            '
            yield str(t_2(environment.getattr(l_2_rule, 'code')))
            yield ',\n            '
            yield str(t_2(environment.getattr(l_2_rule, 'kind')))
            yield ',\n            '
            yield str(t_3(environment.getattr(l_2_rule, 'names'), 12))
            yield '\n            '
            yield str(t_2(context.call(environment.getattr((undefined(name='words') if l_0_words is missing else l_0_words), 'sentence'), l_2_rule, '`', _loop_vars=_loop_vars)))
            yield ',\n'
            if environment.getitem(environment.getattr(l_2_rule, 'runtime'), 0):
                pass
                yield '            '
                yield str(t_3(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 0), 12, 'subject='))
                yield '\n'
            if (not t_4(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 1))):
                pass
                yield '            '
                yield str(t_3(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 1), 12, 'condition='))
                yield '\n'
            if environment.getitem(environment.getattr(l_2_rule, 'runtime'), 2):
                pass
                yield '            '
                yield str(t_3(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 2), 12, 'other='))
                yield '\n'
            if (not t_4(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 3))):
                pass
                yield '            '
                yield str(t_3(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 3), 12, 'relation='))
                yield '\n'
            if (not t_4(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 4))):
                pass
                yield '            '
                yield str(t_3(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 4), 12, 'when='))
                yield '\n'
            yield '        ),\n'
        l_2_rule = missing
        yield '    ),\n'
    l_1_message = l_1_rules = missing
    yield '}\n'

blocks = {}
debug_info = '1=39&2=47&7=50&10=52&11=56&12=58&14=62&15=64&16=66&17=68&18=70&19=73&21=75&22=78&24=80&25=83&27=85&28=88&30=90&31=93'
