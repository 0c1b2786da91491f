# @generated from templates/_specs.py.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '4f21296d2865cf90846a6c2a4a59c76247523b9ffc8769b5515f2db2215d7466'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_specs.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_imports = resolve('imports')
    l_0_strict_env = resolve('strict_env')
    l_0_logger_object = resolve('logger_object')
    l_0_overrides = resolve('overrides')
    l_0_pb2_imports = resolve('pb2_imports')
    l_0_h = l_0_policy = missing
    try:
        t_1 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_2 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    included_template = environment.get_template('_header.j2', '_specs.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '_specs.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n"""What the annotations add to the messages\' descriptors.\n\nThe runtime reads every field\'s facts (kind, bounds, presence, enum values,\ndefaults) from the descriptors at import; these are the policies and\nconstraints the annotations file adds.\n"""\n\n'
    yield str((undefined(name='imports') if l_0_imports is missing else l_0_imports))
    yield '\n\nconfigure(strict_env='
    yield str(t_1((undefined(name='strict_env') if l_0_strict_env is missing else l_0_strict_env)))
    if (undefined(name='logger_object') if l_0_logger_object is missing else l_0_logger_object):
        pass
        yield ', logger=_logger'
    yield ')\n'
    if environment.getattr((undefined(name='overrides') if l_0_overrides is missing else l_0_overrides), 'policies'):
        pass
        yield "\n# compatible mode's answers to a value of the wrong Python type (compat_policies)\n_POLICIES = {\n"
        for (l_1_name, l_1_p) in environment.getattr((undefined(name='overrides') if l_0_overrides is missing else l_0_overrides), 'policies'):
            _loop_vars = {}
            pass
            yield '    '
            yield str(t_1(l_1_name))
            yield ': Policy('
            yield str(t_1(environment.getattr(l_1_p, 'action')))
            yield ', '
            yield str((environment.getattr(l_1_p, 'error') or 'None'))
            yield ', '
            yield str(t_1(environment.getattr(l_1_p, 'message')))
            yield '),\n'
        l_1_name = l_1_p = missing
        yield '}\n'
    def macro(l_1_name, l_1_message):
        t_3 = []
        if l_1_name is missing:
            l_1_name = undefined("parameter 'name' was not provided", name='name')
        if l_1_message is missing:
            l_1_message = undefined("parameter 'message' was not provided", name='message')
        pass
        t_3.extend((
            '_POLICIES[',
            str(t_1(l_1_name)),
            ']',
        ))
        if (not t_2(l_1_message)):
            pass
            t_3.extend((
                '._replace(message=',
                str(t_1(l_1_message)),
                ')',
            ))
        return concat(t_3)
    context.exported_vars.add('policy')
    context.vars['policy'] = l_0_policy = Macro(environment, macro, 'policy', ('name', 'message'), False, False, False, context.eval_ctx.autoescape)
    yield '\nregister(\n'
    def t_4(fiter):
        for l_1_m in fiter:
            if environment.getattr(l_1_m, 'generated'):
                yield l_1_m
    for l_1_m in t_4((undefined(name='pb2_imports') if l_0_pb2_imports is missing else l_0_pb2_imports)):
        _loop_vars = {}
        pass
        yield '    '
        yield str(environment.getattr(l_1_m, 'alias'))
        yield ',\n'
    l_1_m = missing
    if environment.getattr((undefined(name='overrides') if l_0_overrides is missing else l_0_overrides), 'class_policies'):
        pass
        yield '    policies={\n'
        for (l_1_message, l_1_name) in environment.getattr((undefined(name='overrides') if l_0_overrides is missing else l_0_overrides), 'class_policies'):
            _loop_vars = {}
            pass
            yield '        '
            yield str(t_1(l_1_message))
            yield ': '
            yield str(context.call((undefined(name='policy') if l_0_policy is missing else l_0_policy), l_1_name, None, _loop_vars=_loop_vars))
            yield ',\n'
        l_1_message = l_1_name = missing
        yield '    },\n'
    if environment.getattr((undefined(name='overrides') if l_0_overrides is missing else l_0_overrides), 'fields'):
        pass
        yield '    fields={\n'
        for l_1_f in environment.getattr((undefined(name='overrides') if l_0_overrides is missing else l_0_overrides), 'fields'):
            _loop_vars = {}
            pass
            yield '        '
            yield str(t_1(environment.getattr(l_1_f, 'path')))
            yield ': {\n'
            if environment.getattr(l_1_f, 'own_policy'):
                pass
                yield '            "policy": '
                yield str(context.call((undefined(name='policy') if l_0_policy is missing else l_0_policy), environment.getattr(l_1_f, 'policy'), environment.getattr(l_1_f, 'policy_message'), _loop_vars=_loop_vars))
                yield ',\n'
            for (l_2_key, l_2_value) in environment.getattr(l_1_f, 'overrides'):
                _loop_vars = {}
                pass
                yield '            '
                yield str(t_1(l_2_key))
                yield ': '
                yield str(t_1(l_2_value))
                yield ',\n'
            l_2_key = l_2_value = missing
            yield '        },\n'
        l_1_f = missing
        yield '    },\n'
    yield ')\n'

blocks = {}
debug_info = '1=30&9=38&11=40&12=45&16=48&17=52&21=62&22=71&26=85&27=93&29=96&31=99&32=103&36=109&38=112&39=116&40=118&41=121&43=123&44=127'
