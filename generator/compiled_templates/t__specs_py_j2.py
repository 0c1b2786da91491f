# @generated from templates/_specs.py.j2 by python tests/regen_goldens.py. DO NOT EDIT.
SOURCE_KEY = '73d330368c015f648db472703fb8244bf4e1637140b6ac48d5e32bf2e1d8d2c3'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_specs.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_package = resolve('package')
    l_0_imported_specs = resolve('imported_specs')
    l_0_pb2_imports = resolve('pb2_imports')
    l_0_logger_object = resolve('logger_object')
    l_0_strict_env = resolve('strict_env')
    l_0_enums = resolve('enums')
    l_0_specs = resolve('specs')
    l_0_h = l_0_pb2_import = l_0_access = l_0_field_spec = missing
    try:
        t_1 = environment.filters['indent']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'indent' found.")
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
    included_template = environment.get_template('_header.j2', '_specs.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in '_specs.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    included_template = environment.get_template('_imports.j2', '_specs.py.j2')._get_default_module(context)
    l_0_pb2_import = getattr(included_template, 'pb2_import', missing)
    if l_0_pb2_import is missing:
        l_0_pb2_import = undefined(f"the template {included_template.__name__!r} (imported on line 2 in '_specs.py.j2') does not export the requested name 'pb2_import'", name='pb2_import')
    context.vars['pb2_import'] = l_0_pb2_import
    context.exported_vars.discard('pb2_import')
    yield '"""What the runtime knows about each message: field specs and dict views."""\n\nfrom __future__ import annotations\n\nfrom typing import TYPE_CHECKING, cast\n\nfrom '
    yield str((undefined(name='package') if l_0_package is missing else l_0_package))
    yield '.runtime import SPECS, FieldSpec, MessageSpec, Policy, configure, unset_defaults'
    if (undefined(name='imported_specs') if l_0_imported_specs is missing else l_0_imported_specs):
        pass
        yield ', imported_spec'
    yield '\n'
    for l_1_m in (undefined(name='pb2_imports') if l_0_pb2_imports is missing else l_0_pb2_imports):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='pb2_import') if l_0_pb2_import is missing else l_0_pb2_import), l_1_m, reexport=True, _loop_vars=_loop_vars))
        yield '\n'
    l_1_m = missing
    if (undefined(name='logger_object') if l_0_logger_object is missing else l_0_logger_object):
        pass
        yield 'from '
        yield str(environment.getitem((undefined(name='logger_object') if l_0_logger_object is missing else l_0_logger_object), 0))
        yield ' import '
        yield str(environment.getitem((undefined(name='logger_object') if l_0_logger_object is missing else l_0_logger_object), 1))
        yield ' as _logger\n'
    yield '\nif TYPE_CHECKING:\n    from '
    yield str((undefined(name='package') if l_0_package is missing else l_0_package))
    yield ' import types as _types\n\nconfigure(strict_env='
    yield str(t_2((undefined(name='strict_env') if l_0_strict_env is missing else l_0_strict_env)))
    if (undefined(name='logger_object') if l_0_logger_object is missing else l_0_logger_object):
        pass
        yield ', logger=_logger'
    yield ')\n'
    if (undefined(name='imported_specs') if l_0_imported_specs is missing else l_0_imported_specs):
        pass
        yield '\n# message types this package does not generate: specs read from their descriptors\n'
        for (l_1_var, l_1_cls) in (undefined(name='imported_specs') if l_0_imported_specs is missing else l_0_imported_specs):
            _loop_vars = {}
            pass
            yield str(l_1_var)
            yield ' = imported_spec('
            yield str(l_1_cls)
            yield ')\n'
        l_1_var = l_1_cls = missing
    for l_1_enum in (undefined(name='enums') if l_0_enums is missing else l_0_enums):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(environment.getattr(l_1_enum, 'values_var'))
        yield ' = {\n'
        for l_2_value in environment.getattr(l_1_enum, 'values'):
            _loop_vars = {}
            pass
            yield '    '
            yield str(t_2(environment.getitem(l_2_value, 0)))
            yield ': '
            yield str(environment.getitem(l_2_value, 1))
            yield ',\n'
        l_2_value = missing
        yield '}\n'
    l_1_enum = missing
    def macro(l_1_f):
        t_4 = []
        if l_1_f is missing:
            l_1_f = undefined("parameter 'f' was not provided", name='f')
        pass
        if environment.getattr(l_1_f, 'attr'):
            pass
            t_4.extend((
                'message.',
                str(environment.getattr(l_1_f, 'name')),
            ))
        else:
            pass
            t_4.extend((
                'getattr(message, ',
                str(t_2(environment.getattr(l_1_f, 'name'))),
                ')',
            ))
        return concat(t_4)
    context.exported_vars.add('access')
    context.vars['access'] = l_0_access = Macro(environment, macro, 'access', ('f',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_f):
        t_5 = []
        if l_1_f is missing:
            l_1_f = undefined("parameter 'f' was not provided", name='f')
        pass
        t_5.extend((
            'FieldSpec(\n    ',
            str(t_2(environment.getattr(l_1_f, 'name'))),
            ',\n    ',
            str(t_2(environment.getattr(l_1_f, 'kind'))),
            ',\n',
        ))
        if environment.getattr(l_1_f, 'repeated'):
            pass
            t_5.append(
                '    repeated=True,\n',
            )
        if environment.getattr(l_1_f, 'append'):
            pass
            t_5.append(
                '    append=True,\n',
            )
        if (not environment.getattr(l_1_f, 'has_presence')):
            pass
            t_5.append(
                '    has_presence=False,\n',
            )
        if (not t_3(environment.getattr(l_1_f, 'low'))):
            pass
            t_5.extend((
                '    low=',
                str(environment.getattr(l_1_f, 'low')),
                ',\n    high=',
                str(environment.getattr(l_1_f, 'high')),
                ',\n',
            ))
        if environment.getattr(l_1_f, 'float32'):
            pass
            t_5.append(
                '    float32=True,\n',
            )
        if environment.getattr(l_1_f, 'allow_nonfinite'):
            pass
            t_5.append(
                '    allow_nonfinite=True,\n',
            )
        if environment.getattr(l_1_f, 'constraint'):
            pass
            t_5.extend((
                '    constraint=',
                str(t_2(environment.getattr(l_1_f, 'constraint'))),
                ',\n',
            ))
        if environment.getattr(l_1_f, 'constraint_always'):
            pass
            t_5.append(
                '    constraint_always=True,\n',
            )
        if environment.getattr(l_1_f, 'choices'):
            pass
            t_5.extend((
                '    choices=',
                str(t_2(environment.getattr(l_1_f, 'choices'))),
                ',\n',
            ))
        if environment.getattr(l_1_f, 'enum_var'):
            pass
            t_5.extend((
                '    enum_values=',
                str(environment.getattr(l_1_f, 'enum_var')),
                ',\n',
            ))
        if environment.getattr(l_1_f, 'message'):
            pass
            t_5.extend((
                '    message=',
                str(t_2(environment.getattr(l_1_f, 'message'))),
                ',\n',
            ))
        if environment.getattr(l_1_f, 'map_key'):
            pass
            t_5.extend((
                '    map_key=',
                str(t_1(context.call((undefined(name='field_spec') if l_0_field_spec is missing else l_0_field_spec), environment.getattr(l_1_f, 'map_key')), 4)),
                ',\n    map_value=',
                str(t_1(context.call((undefined(name='field_spec') if l_0_field_spec is missing else l_0_field_spec), environment.getattr(l_1_f, 'map_value')), 4)),
                ',\n',
            ))
        if environment.getattr(l_1_f, 'policy'):
            pass
            t_5.extend((
                '    policy=Policy(',
                str(t_2(environment.getattr(environment.getattr(l_1_f, 'policy'), 'action'))),
                ', ',
                str((environment.getattr(environment.getattr(l_1_f, 'policy'), 'error') or 'None')),
                ', ',
                str(t_2(environment.getattr(environment.getattr(l_1_f, 'policy'), 'message'))),
                '),\n',
            ))
        t_5.extend((
            '    py_type=',
            str(t_2(environment.getattr(l_1_f, 'py_type'))),
            ',\n',
        ))
        if environment.getattr(l_1_f, 'deprecated'):
            pass
            t_5.append(
                '    deprecated=True,\n',
            )
        t_5.append(
            ')',
        )
        return concat(t_5)
    context.exported_vars.add('field_spec')
    context.vars['field_spec'] = l_0_field_spec = Macro(environment, macro, 'field_spec', ('f',), False, False, False, context.eval_ctx.autoescape)
    l_1_loop = missing
    for l_1_spec, l_1_loop in LoopContext((undefined(name='specs') if l_0_specs is missing else l_0_specs), undefined):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(environment.getattr(l_1_spec, 'var'))
        yield ' = MessageSpec('
        yield str(t_2(environment.getattr(l_1_spec, 'full_name')))
        yield ', '
        yield str(environment.getattr(l_1_spec, 'cls'))
        yield ', {})\n'
        for l_2_f in environment.getattr(l_1_spec, 'fields'):
            _loop_vars = {}
            pass
            yield str(environment.getattr(l_1_spec, 'var'))
            yield '.fields['
            yield str(t_2(environment.getattr(l_2_f, 'name')))
            yield '] = '
            yield str(context.call((undefined(name='field_spec') if l_0_field_spec is missing else l_0_field_spec), l_2_f, _loop_vars=_loop_vars))
            yield '\n'
        l_2_f = missing
        yield 'SPECS['
        yield str(t_2(environment.getattr(l_1_spec, 'full_name')))
        yield '] = '
        yield str(environment.getattr(l_1_spec, 'var'))
        yield '\n\n\n_'
        yield str(environment.getattr(l_1_spec, 'to_dict'))
        yield '_UNSET = unset_defaults('
        yield str(environment.getattr(l_1_spec, 'cls'))
        yield ')\n\n\ndef '
        yield str(environment.getattr(l_1_spec, 'to_dict'))
        yield '(message: '
        yield str(environment.getattr(l_1_spec, 'cls'))
        yield ') -> _types.'
        yield str(environment.getattr(l_1_spec, 'dict_type'))
        yield ':\n    """Dict view of a ``'
        yield str(environment.getattr(l_1_spec, 'full_name'))
        yield '``: every field, lists for repeated ones."""\n    if not message.ListFields():  # nothing set: the defaults read at import\n        return cast(\n            "_types.'
        yield str(environment.getattr(l_1_spec, 'dict_type'))
        yield '",\n            {\n                **_'
        yield str(environment.getattr(l_1_spec, 'to_dict'))
        yield '_UNSET,\n'
        for l_2_f in environment.getattr(l_1_spec, 'fields'):
            _loop_vars = {}
            pass
            if (environment.getattr(l_2_f, 'unset_view') == 'live'):
                pass
                yield '                '
                yield str(t_2(environment.getattr(l_2_f, 'name')))
                yield ': '
                yield str(context.call((undefined(name='access') if l_0_access is missing else l_0_access), l_2_f, _loop_vars=_loop_vars))
                yield ',\n'
            elif environment.getattr(l_2_f, 'unset_view'):
                pass
                yield '                '
                yield str(t_2(environment.getattr(l_2_f, 'name')))
                yield ': '
                yield str(environment.getattr(l_2_f, 'unset_view'))
                yield ',\n'
        l_2_f = missing
        yield '            },\n        )\n'
        if (not environment.getattr(l_1_spec, 'fields')):
            pass
            yield '    return {}\n'
        else:
            pass
            yield '    return {\n'
            l_2_loop = missing
            for l_2_f, l_2_loop in LoopContext(environment.getattr(l_1_spec, 'fields'), undefined):
                _loop_vars = {}
                pass
                if (environment.getattr(l_2_f, 'read') == 'list'):
                    pass
                    yield '        '
                    yield str(t_2(environment.getattr(l_2_f, 'name')))
                    yield ': items'
                    yield str(environment.getattr(l_2_loop, 'index'))
                    yield '[:] if (items'
                    yield str(environment.getattr(l_2_loop, 'index'))
                    yield ' := '
                    yield str(context.call((undefined(name='access') if l_0_access is missing else l_0_access), l_2_f, _loop_vars=_loop_vars))
                    yield ') else [],\n'
                elif (environment.getattr(l_2_f, 'read') == 'dict'):
                    pass
                    yield '        '
                    yield str(t_2(environment.getattr(l_2_f, 'name')))
                    yield ': dict('
                    yield str(context.call((undefined(name='access') if l_0_access is missing else l_0_access), l_2_f, _loop_vars=_loop_vars))
                    yield '),\n'
                elif (environment.getattr(l_2_f, 'read') == 'dicts'):
                    pass
                    yield '        '
                    yield str(t_2(environment.getattr(l_2_f, 'name')))
                    yield ': ['
                    yield str(environment.getattr(l_2_f, 'item_to_dict'))
                    yield '(item) for item in '
                    yield str(context.call((undefined(name='access') if l_0_access is missing else l_0_access), l_2_f, _loop_vars=_loop_vars))
                    yield '],\n'
                else:
                    pass
                    yield '        '
                    yield str(t_2(environment.getattr(l_2_f, 'name')))
                    yield ': '
                    yield str(context.call((undefined(name='access') if l_0_access is missing else l_0_access), l_2_f, _loop_vars=_loop_vars))
                    yield ',\n'
            l_2_loop = l_2_f = missing
            yield '    }\n'
    l_1_loop = l_1_spec = missing

blocks = {}
debug_info = '1=38&2=46&9=53&11=59&12=62&14=65&15=68&19=73&21=75&22=80&25=83&26=86&29=91&31=95&32=97&33=101&37=108&38=113&40=129&42=136&43=138&44=141&47=146&50=151&53=156&54=160&55=162&57=165&60=170&63=175&64=179&66=182&69=187&70=191&72=194&73=198&75=201&76=205&78=208&79=212&80=214&82=217&83=221&85=230&86=233&91=245&93=249&95=255&96=258&98=266&101=270&104=274&105=280&108=282&110=284&111=286&112=289&113=292&114=296&115=299&120=305&124=312&125=315&126=318&127=326&128=329&129=333&130=336&132=345'
