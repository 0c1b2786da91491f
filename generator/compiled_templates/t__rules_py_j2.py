# @generated from templates/_rules.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '2fcb13a934cc065a4dda74010feda96f97d894e5cbcd1bedbf2f1689790844cb'
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
        t_3 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_3(*unused):
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
            yield str(t_2(environment.getattr(l_2_rule, 'names')))
            yield ',\n            '
            yield str(t_2(context.call(environment.getattr((undefined(name='words') if l_0_words is missing else l_0_words), 'sentence'), l_2_rule, '`', _loop_vars=_loop_vars)))
            yield ',\n'
            if environment.getitem(environment.getattr(l_2_rule, 'runtime'), 0):
                pass
                yield '            subject='
                yield str(t_2(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 0)))
                yield ',\n'
            if (not t_3(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 1))):
                pass
                yield '            condition='
                yield str(t_2(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 1)))
                yield ',\n'
            if environment.getitem(environment.getattr(l_2_rule, 'runtime'), 2):
                pass
                yield '            other='
                yield str(t_2(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 2)))
                yield ',\n'
            if (not t_3(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 3))):
                pass
                yield '            relation='
                yield str(t_2(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 3)))
                yield ',\n'
            if (not t_3(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 4))):
                pass
                yield '            when='
                yield str(t_2(environment.getitem(environment.getattr(l_2_rule, 'runtime'), 4)))
                yield ',\n'
            yield '        ),\n'
        l_2_rule = missing
        yield '    ),\n'
    l_1_message = l_1_rules = missing
    yield '}\n'

blocks = {}
debug_info = '1=33&2=41&7=44&10=46&11=50&12=52&14=56&15=58&16=60&17=62&18=64&19=67&21=69&22=72&24=74&25=77&27=79&28=82&30=84&31=87'
