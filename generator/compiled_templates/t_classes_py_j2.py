# @generated from templates/classes.py.j2 by python tests/regen_goldens.py. DO NOT EDIT.
SOURCE_KEY = 'c1557a78e2ca802c2fa2ce2e5fcf66bbaad7cf4bc141c2b917cc37f9b19a56f0'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'classes.py.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_module = resolve('module')
    l_0_pb2_imports = resolve('pb2_imports')
    l_0_package = resolve('package')
    l_0_hooks_module = resolve('hooks_module')
    l_0_classes = resolve('classes')
    l_0_h = l_0_docbody = l_0_pb2_import = l_0_field_of = l_0_set_field = missing
    try:
        t_1 = environment.filters['docstring']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'docstring' found.")
    try:
        t_2 = environment.filters['first']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'first' found.")
    try:
        t_3 = environment.filters['plain_attribute']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'plain_attribute' found.")
    try:
        t_4 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    try:
        t_5 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_6 = environment.tests['defined']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No test named 'defined' found.")
    pass
    included_template = environment.get_template('_header.j2', 'classes.py.j2')._get_default_module(context)
    l_0_h = getattr(included_template, 'header', missing)
    if l_0_h is missing:
        l_0_h = undefined(f"the template {included_template.__name__!r} (imported on line 1 in 'classes.py.j2') does not export the requested name 'header'", name='header')
    context.vars['h'] = l_0_h
    context.exported_vars.discard('h')
    yield str(context.call((undefined(name='h') if l_0_h is missing else l_0_h), (undefined(name='header') if l_0_header is missing else l_0_header)))
    yield '\n'
    included_template = environment.get_template('_doc.j2', 'classes.py.j2').make_module(context.get_all(), True, {'docbody': l_0_docbody, 'field_of': l_0_field_of, 'h': l_0_h, 'pb2_import': l_0_pb2_import, 'set_field': l_0_set_field})
    l_0_docbody = getattr(included_template, 'docbody', missing)
    if l_0_docbody is missing:
        l_0_docbody = undefined(f"the template {included_template.__name__!r} (imported on line 2 in 'classes.py.j2') does not export the requested name 'docbody'", name='docbody')
    context.vars['docbody'] = l_0_docbody
    context.exported_vars.discard('docbody')
    included_template = environment.get_template('_imports.j2', 'classes.py.j2')._get_default_module(context)
    l_0_pb2_import = getattr(included_template, 'pb2_import', missing)
    if l_0_pb2_import is missing:
        l_0_pb2_import = undefined(f"the template {included_template.__name__!r} (imported on line 3 in 'classes.py.j2') does not export the requested name 'pb2_import'", name='pb2_import')
    context.vars['pb2_import'] = l_0_pb2_import
    context.exported_vars.discard('pb2_import')
    def macro(l_1_cls, l_1_prop):
        t_7 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_prop is missing:
            l_1_prop = undefined("parameter 'prop' was not provided", name='prop')
        pass
        if t_3(environment.getattr(l_1_prop, 'field_name')):
            pass
            t_7.extend((
                'self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                '.',
                str(environment.getattr(l_1_prop, 'field_name')),
            ))
        else:
            pass
            t_7.extend((
                'getattr(self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                ', ',
                str(t_4(environment.getattr(l_1_prop, 'field_name'))),
                ')',
            ))
        return concat(t_7)
    context.exported_vars.add('field_of')
    context.vars['field_of'] = l_0_field_of = Macro(environment, macro, 'field_of', ('cls', 'prop'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_cls, l_1_prop, l_1_value):
        t_8 = []
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_prop is missing:
            l_1_prop = undefined("parameter 'prop' was not provided", name='prop')
        if l_1_value is missing:
            l_1_value = undefined("parameter 'value' was not provided", name='value')
        pass
        if t_3(environment.getattr(l_1_prop, 'field_name')):
            pass
            t_8.extend((
                'self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                '.',
                str(environment.getattr(l_1_prop, 'field_name')),
                ' = ',
                str(l_1_value),
            ))
        else:
            pass
            t_8.extend((
                'setattr(self.',
                str(environment.getattr(l_1_cls, 'message_attribute')),
                ', ',
                str(t_4(environment.getattr(l_1_prop, 'field_name'))),
                ', ',
                str(l_1_value),
                ')',
            ))
        return concat(t_8)
    context.exported_vars.add('set_field')
    context.vars['set_field'] = l_0_set_field = Macro(environment, macro, 'set_field', ('cls', 'prop', 'value'), False, False, False, context.eval_ctx.autoescape)
    yield '"""Wrapper classes of ``'
    yield str((undefined(name='module') if l_0_module is missing else l_0_module))
    yield '``: typed properties over protobuf messages."""\n\nfrom __future__ import annotations\n\nimport copy\nfrom typing import TYPE_CHECKING, Any\n\n'
    for l_1_m in (undefined(name='pb2_imports') if l_0_pb2_imports is missing else l_0_pb2_imports):
        _loop_vars = {}
        pass
        yield str(context.call((undefined(name='pb2_import') if l_0_pb2_import is missing else l_0_pb2_import), l_1_m, _loop_vars=_loop_vars))
        yield '\n'
    l_1_m = missing
    yield 'from '
    yield str((undefined(name='package') if l_0_package is missing else l_0_package))
    yield ' import _specs, runtime as _runtime\n'
    if (undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module):
        pass
        yield 'from '
        yield str((undefined(name='package') if l_0_package is missing else l_0_package))
        yield ' import '
        yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
        yield '\n'
    yield '\nif TYPE_CHECKING:\n    from collections.abc import Mapping\n\n    from google.protobuf.internal import containers as _containers\n\n'
    for l_1_cls in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_cls, 'type_imports'):
            pass
            yield '    from '
            yield str((undefined(name='package') if l_0_package is missing else l_0_package))
            yield '.types import (\n'
            for l_2_name in environment.getattr(l_1_cls, 'type_imports'):
                _loop_vars = {}
                pass
                yield '        '
                yield str(l_2_name)
                yield ',\n'
            l_2_name = missing
            yield '    )\n'
    l_1_cls = missing
    yield '\n__all__ = [\n'
    for l_1_cls in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        _loop_vars = {}
        pass
        yield '    '
        yield str(t_4(environment.getattr(l_1_cls, 'name')))
        yield ',\n'
    l_1_cls = missing
    yield ']\n\n_KEEP = _runtime.KEEP\n_check_scalar = _runtime.check_scalar\n_assign_config = _runtime.assign_config\n_replace_repeated = _runtime.replace_repeated\n'
    for l_1_cls in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        _loop_vars = {}
        pass
        yield '_'
        yield str(environment.getattr(l_1_cls, 'name'))
        yield '_FIELDS = _specs.'
        yield str(environment.getattr(l_1_cls, 'spec_var'))
        yield '.fields\n\n\nclass '
        yield str(environment.getattr(l_1_cls, 'name'))
        if environment.getattr(l_1_cls, 'mixin'):
            pass
            yield '('
            yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
            yield '.'
            yield str(environment.getattr(l_1_cls, 'mixin'))
            yield ')'
        yield ':\n    '
        yield str(t_1(context.call((undefined(name='docbody') if l_0_docbody is missing else l_0_docbody), environment.getattr(l_1_cls, 'doc'), _loop_vars=_loop_vars)))
        yield '\n\n    __slots__ = ('
        yield str(t_4(environment.getattr(l_1_cls, 'message_attribute')))
        yield ', "_strict")\n\n    '
        yield str(environment.getattr(l_1_cls, 'message_attribute'))
        yield ': '
        yield str(environment.getattr(l_1_cls, 'message_cls'))
        yield '\n    _strict: bool\n\n    def __init__(self, *, strict: bool | None = None) -> None:\n        if strict is not None and type(strict) is not bool:\n            raise TypeError(f"strict must be a bool or None, got {type(strict).__name__}")\n        object.__setattr__(self, '
        yield str(t_4(environment.getattr(l_1_cls, 'message_attribute')))
        yield ', '
        yield str(environment.getattr(l_1_cls, 'message_cls'))
        yield '())\n        object.__setattr__(self, "_strict", _runtime.default_strict() if strict is None else strict)\n'
        if environment.getattr(l_1_cls, 'init_hook'):
            pass
            yield '        '
            yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
            yield '.'
            yield str(environment.getattr(l_1_cls, 'init_hook'))
            yield '(self)\n'
        yield '\n    def __setattr__(self, name: str, value: Any) -> None:\n        direct = _'
        yield str(environment.getattr(l_1_cls, 'name'))
        yield "_DIRECT.get(name)\n        if direct is not None and value.__class__ is direct[0] and not self._strict:\n            # the setter's fast path without the property call (its half of a scalar set)\n            setattr(self."
        yield str(environment.getattr(l_1_cls, 'message_attribute'))
        yield ', direct[1], value)\n            return\n        # The attribute lock: a misspelt option must not silently become a\n        # new attribute that configures nothing.\n        if name in _'
        yield str(environment.getattr(l_1_cls, 'name'))
        yield '_SETTABLE:\n            object.__setattr__(self, name, value)\n            return\n        raise TypeError(_runtime.unknown_attribute(self, name, _'
        yield str(environment.getattr(l_1_cls, 'name'))
        yield '_SETTABLE))\n\n    def __getstate__(self) -> dict[str, Any]:\n        return _runtime.slot_state(self, '
        yield str(t_4(environment.getattr(l_1_cls, 'message_attribute')))
        yield ')\n\n    def __setstate__(self, state: dict[str, Any]) -> None:\n        _runtime.restore_slots(self, state, '
        yield str(t_4(environment.getattr(l_1_cls, 'message_attribute')))
        yield ', '
        yield str(environment.getattr(l_1_cls, 'message_cls'))
        yield ')\n\n    def __copy__(self) -> '
        yield str(environment.getattr(l_1_cls, 'name'))
        yield ':\n        # Even a shallow copy owns its message: changing the copy must not\n        # change the original (fleet copies the strategy it is given).\n        return copy.deepcopy(self)\n\n    @property\n    def strict(self) -> bool:\n        """Whether this instance validates strictly (see ``set_default_strict``).\n\n        Type:\n            ``bool``\n        """\n        return self._strict\n\n    @strict.setter\n    def strict(self, value: bool) -> None:\n        if type(value) is not bool:\n            raise TypeError(f"strict: expected bool, got {type(value).__name__}")\n        object.__setattr__(self, "_strict", value)\n'
        for l_2_prop in environment.getattr(l_1_cls, 'properties'):
            _loop_vars = {}
            pass
            yield '\n    @property\n    def '
            yield str(environment.getattr(l_2_prop, 'name'))
            yield '(self) -> '
            yield str(environment.getattr(l_2_prop, 'getter_type'))
            yield ':\n        '
            yield str(t_1(context.call((undefined(name='docbody') if l_0_docbody is missing else l_0_docbody), environment.getattr(l_2_prop, 'doc'), environment.getattr(environment.getattr(l_1_cls, 'doc'), 'rules'), _loop_vars=_loop_vars), 8))
            yield '\n'
            if environment.getattr(l_2_prop, 'getter_hook'):
                pass
                yield '        return '
                yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                yield '.'
                yield str(environment.getattr(l_2_prop, 'getter_hook'))
                yield '(self)\n'
            elif environment.getattr(l_2_prop, 'to_dict_fn'):
                pass
                yield '        return _specs.'
                yield str(environment.getattr(l_2_prop, 'to_dict_fn'))
                yield '('
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield ')\n'
            elif (environment.getattr(l_2_prop, 'read') == 'list'):
                pass
                yield '        return list('
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield ')\n'
            elif (environment.getattr(l_2_prop, 'read') == 'dict'):
                pass
                yield '        return dict('
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield ')\n'
            else:
                pass
                yield '        return '
                yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                yield '\n'
            if environment.getattr(l_2_prop, 'setter_type'):
                pass
                yield '\n    @'
                yield str(environment.getattr(l_2_prop, 'name'))
                yield '.setter\n    def '
                yield str(environment.getattr(l_2_prop, 'name'))
                yield '(self, value: '
                yield str(environment.getattr(l_2_prop, 'setter_type'))
                yield ') -> None:\n'
                if environment.getattr(l_2_prop, 'deprecated'):
                    pass
                    yield '        _runtime.warn_deprecated('
                    yield str(t_4(environment.getattr(l_2_prop, 'name')))
                    yield ')\n'
                if environment.getattr(l_2_prop, 'setter_hook'):
                    pass
                    yield '        '
                    yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                    yield '.'
                    yield str(environment.getattr(l_2_prop, 'setter_hook'))
                    yield '(self, value)\n'
                elif ((environment.getattr(l_2_prop, 'kind') == 'scalar') and environment.getattr(l_2_prop, 'fast_type')):
                    pass
                    yield '        if value.__class__ is not '
                    yield str(environment.getattr(l_2_prop, 'fast_type'))
                    yield ' or self._strict:\n            value = _check_scalar(self._strict, _'
                    yield str(environment.getattr(l_1_cls, 'name'))
                    yield '_FIELDS['
                    yield str(t_4(environment.getattr(l_2_prop, 'field_name')))
                    yield '], value, '
                    yield str(t_4(environment.getattr(l_2_prop, 'name')))
                    yield ')\n            if value is _KEEP:\n                return\n        '
                    yield str(context.call((undefined(name='set_field') if l_0_set_field is missing else l_0_set_field), l_1_cls, l_2_prop, 'value', _loop_vars=_loop_vars))
                    yield '\n'
                elif (environment.getattr(l_2_prop, 'kind') == 'scalar'):
                    pass
                    yield '        stored = _check_scalar(self._strict, _'
                    yield str(environment.getattr(l_1_cls, 'name'))
                    yield '_FIELDS['
                    yield str(t_4(environment.getattr(l_2_prop, 'field_name')))
                    yield '], value, '
                    yield str(t_4(environment.getattr(l_2_prop, 'name')))
                    yield ')\n        if stored is _KEEP:\n            return\n        '
                    yield str(context.call((undefined(name='set_field') if l_0_set_field is missing else l_0_set_field), l_1_cls, l_2_prop, 'stored', _loop_vars=_loop_vars))
                    yield '\n'
                elif (environment.getattr(l_2_prop, 'kind') in ('config', 'message')):
                    pass
                    yield '        _assign_config(\n            '
                    yield str(context.call((undefined(name='field_of') if l_0_field_of is missing else l_0_field_of), l_1_cls, l_2_prop, _loop_vars=_loop_vars))
                    yield ',\n            value,\n            _specs.'
                    yield str(environment.getattr(l_2_prop, 'target_spec_var'))
                    yield ',\n            '
                    yield str(t_4(environment.getattr(l_2_prop, 'name')))
                    yield ',\n            self._strict,\n'
                    if (not environment.getattr(l_1_cls, 'empty_config_sets')):
                        pass
                        yield '            empty_sets=False,\n'
                    yield '        )\n'
                else:
                    pass
                    yield '        _replace_repeated(\n            self.'
                    yield str(environment.getattr(l_1_cls, 'message_attribute'))
                    yield ',\n            _'
                    yield str(environment.getattr(l_1_cls, 'name'))
                    yield '_FIELDS['
                    yield str(t_4(environment.getattr(l_2_prop, 'field_name')))
                    yield '],\n            value,\n            '
                    yield str(t_4(environment.getattr(l_2_prop, 'name')))
                    yield ',\n            self._strict,\n        )\n'
                if environment.getattr(l_2_prop, 'after_set_hook'):
                    pass
                    yield '        '
                    yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
                    yield '.'
                    yield str(environment.getattr(l_2_prop, 'after_set_hook'))
                    yield '(self)\n'
        l_2_prop = missing
        yield '\n\n# Options a value of exactly this type in compatible mode sets directly.\n'
        if t_6(t_2(environment, t_5(context, environment.getattr(l_1_cls, 'properties'), 'direct_set'))):
            pass
            yield '_'
            yield str(environment.getattr(l_1_cls, 'name'))
            yield '_DIRECT: dict[str, tuple[type, str]] = {\n'
            for l_2_prop in environment.getattr(l_1_cls, 'properties'):
                _loop_vars = {}
                pass
                if environment.getattr(l_2_prop, 'direct_set'):
                    pass
                    yield '    '
                    yield str(t_4(environment.getattr(l_2_prop, 'name')))
                    yield ': ('
                    yield str(environment.getattr(l_2_prop, 'fast_type'))
                    yield ', '
                    yield str(t_4(environment.getattr(l_2_prop, 'field_name')))
                    yield '),\n'
            l_2_prop = missing
            yield '}\n'
        else:
            pass
            yield '_'
            yield str(environment.getattr(l_1_cls, 'name'))
            yield '_DIRECT: dict[str, tuple[type, str]] = {}\n'
        yield '\n_'
        yield str(environment.getattr(l_1_cls, 'name'))
        yield '_SETTABLE = frozenset(\n    {\n        '
        yield str(t_4(environment.getattr(l_1_cls, 'message_attribute')))
        yield ',\n        "strict",\n'
        for l_2_prop in environment.getattr(l_1_cls, 'properties'):
            _loop_vars = {}
            pass
            if environment.getattr(l_2_prop, 'setter_type'):
                pass
                yield '        '
                yield str(t_4(environment.getattr(l_2_prop, 'name')))
                yield ',\n'
        l_2_prop = missing
        yield '    }\n)'
        if environment.getattr(l_1_cls, 'mixin'):
            pass
            yield ' | frozenset(getattr('
            yield str((undefined(name='hooks_module') if l_0_hooks_module is missing else l_0_hooks_module))
            yield '.'
            yield str(environment.getattr(l_1_cls, 'mixin'))
            yield ', "__slots__", ()))'
        yield '\n'
    l_1_cls = missing

blocks = {}
debug_info = '1=54&2=62&3=68&4=74&5=81&7=101&8=110&10=135&17=137&18=140&20=144&21=146&22=149&30=154&31=157&32=160&33=162&34=166&41=172&42=176&50=180&51=184&54=188&55=197&57=199&59=201&65=205&67=209&68=212&72=217&75=219&79=221&82=223&85=225&88=227&90=231&109=233&112=237&113=241&114=243&115=246&116=250&117=253&118=257&119=260&120=262&121=265&123=270&125=272&127=275&128=277&129=281&130=284&132=286&133=289&134=293&135=296&136=298&139=304&140=306&141=309&144=315&145=317&147=320&149=322&150=324&152=326&158=333&159=335&161=339&165=341&166=344&173=350&174=353&175=355&176=358&177=361&182=372&185=375&187=377&189=379&190=382&191=385&195=389'
