# @generated from templates/_notes.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '065ea4940c2320555abadea849e00be36517f3ab5574133ab1b0a6eba9aa7717'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_notes.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_like = l_0_answer = l_0_strict_answer = l_0_validation = l_0_defaults = l_0_member_differences = l_0_config_dicts = l_0_constraints = l_0_member_notes = l_0_threads = missing
    try:
        t_1 = environment.filters['pyrepr']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'pyrepr' found.")
    pass
    def macro(l_1_rules):
        t_2 = []
        if l_1_rules is missing:
            l_1_rules = undefined("parameter 'rules' was not provided", name='rules')
        pass
        if (l_1_rules and environment.getattr(l_1_rules, 'reference')):
            pass
            t_2.extend((
                ', as ',
                str(environment.getattr(l_1_rules, 'reference')),
                ' does',
            ))
        return concat(t_2)
    context.exported_vars.add('like')
    context.vars['like'] = l_0_like = Macro(environment, macro, 'like', ('rules',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_policy):
        t_3 = []
        if l_1_policy is missing:
            l_1_policy = undefined("parameter 'policy' was not provided", name='policy')
        pass
        if (environment.getattr(l_1_policy, 'action') == 'warn'):
            pass
            t_3.append(
                'a value of the wrong type logs a warning and keeps the old value',
            )
        elif (environment.getattr(l_1_policy, 'action') == 'raise'):
            pass
            t_3.extend((
                'a value of the wrong type raises ',
                str(environment.getattr(l_1_policy, 'error')),
            ))
        else:
            pass
            t_3.append(
                'protobuf checks the value',
            )
        return concat(t_3)
    context.exported_vars.add('answer')
    context.vars['answer'] = l_0_answer = Macro(environment, macro, 'answer', ('policy',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro():
        t_4 = []
        pass
        t_4.append(
            'Strict mode (the ``strict`` property) raises TypeError (ValueError for a value out of range).',
        )
        return concat(t_4)
    context.exported_vars.add('strict_answer')
    context.vars['strict_answer'] = l_0_strict_answer = Macro(environment, macro, 'strict_answer', (), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rules):
        t_5 = []
        if l_1_rules is missing:
            l_1_rules = undefined("parameter 'rules' was not provided", name='rules')
        pass
        t_5.extend((
            'Compatible mode (the default), for an option that holds a single value: ',
            str(context.call((undefined(name='answer') if l_0_answer is missing else l_0_answer), environment.getattr(l_1_rules, 'policy'))),
            str(context.call((undefined(name='like') if l_0_like is missing else l_0_like), l_1_rules)),
            '. An option that answers otherwise says so in its own docs. ',
            str(context.call((undefined(name='strict_answer') if l_0_strict_answer is missing else l_0_strict_answer))),
            '\n',
        ))
        if context.call(environment.getattr(l_1_rules, 'difference'), 'validation'):
            pass
            t_5.extend((
                str(context.call(environment.getattr(l_1_rules, 'difference'), 'validation')),
                '\n',
            ))
        return concat(t_5)
    context.exported_vars.add('validation')
    context.vars['validation'] = l_0_validation = Macro(environment, macro, 'validation', ('rules',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rules):
        t_6 = []
        if l_1_rules is missing:
            l_1_rules = undefined("parameter 'rules' was not provided", name='rules')
        pass
        t_6.append(
            "Every default shown (an option's, and each key's in a Keys table) is the one the protobuf descriptor declares, or the zero value of the field's type where it declares none: the docs never restate it by hand.\n",
        )
        if (l_1_rules and context.call(environment.getattr(l_1_rules, 'difference'), 'defaults')):
            pass
            t_6.extend((
                str(context.call(environment.getattr(l_1_rules, 'difference'), 'defaults')),
                '\n',
            ))
        return concat(t_6)
    context.exported_vars.add('defaults')
    context.vars['defaults'] = l_0_defaults = Macro(environment, macro, 'defaults', ('rules',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rules):
        t_7 = []
        if l_1_rules is missing:
            l_1_rules = undefined("parameter 'rules' was not provided", name='rules')
        pass
        l_2_loop = missing
        for (l_2_members, l_2_text), l_2_loop in LoopContext(environment.getattr(l_1_rules, 'member_differences'), undefined):
            _loop_vars = {}
            pass
            def t_8(fiter):
                for l_3_m in fiter:
                    if l_3_m:
                        yield l_3_m
            l_3_loop = missing
            for l_3_m, l_3_loop in LoopContext(t_8(l_2_members), undefined):
                _loop_vars = {}
                pass
                t_7.extend((
                    '``',
                    str(l_3_m),
                    '``',
                ))
                if (not environment.getattr(l_3_loop, 'last')):
                    pass
                    t_7.append(
                        ', ',
                    )
                else:
                    pass
                    t_7.append(
                        ': ',
                    )
            l_3_loop = l_3_m = missing
            t_7.extend((
                str(l_2_text),
                '\n',
            ))
        l_2_loop = l_2_members = l_2_text = missing
        return concat(t_7)
    context.exported_vars.add('member_differences')
    context.vars['member_differences'] = l_0_member_differences = Macro(environment, macro, 'member_differences', ('rules',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rules):
        t_9 = []
        if l_1_rules is missing:
            l_1_rules = undefined("parameter 'rules' was not provided", name='rules')
        pass
        t_9.append(
            "An option with a Keys table holds a message whose keys, until set, are at the defaults its table shows; it takes a dict. Assigning one updates only the keys it names and is all-or-nothing: if any key or value is rejected, nothing changes. The caller's dict is never modified. Assigning a list to a list key replaces the stored list (an option whose list keys append says so). Unknown keys raise ``UnknownConfigKeyError`` (a ValueError that is also an AssertionError) naming the valid keys and the closest match.\n",
        )
        if context.call(environment.getattr(l_1_rules, 'difference'), 'config_dicts'):
            pass
            t_9.extend((
                str(context.call(environment.getattr(l_1_rules, 'difference'), 'config_dicts')),
                '\n',
            ))
        return concat(t_9)
    context.exported_vars.add('config_dicts')
    context.vars['config_dicts'] = l_0_config_dicts = Macro(environment, macro, 'config_dicts', ('rules',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_doc):
        t_10 = []
        if l_1_doc is missing:
            l_1_doc = undefined("parameter 'doc' was not provided", name='doc')
        pass
        if environment.getattr(l_1_doc, 'constraint'):
            pass
            t_10.extend((
                '``',
                str(environment.getitem(environment.getattr(l_1_doc, 'constraint'), 0)),
                ' ',
                str(environment.getitem(environment.getattr(l_1_doc, 'constraint'), 1)),
                '`` (',
                str(('always enforced' if environment.getattr(l_1_doc, 'constraint_always') else 'enforced in strict mode')),
                ')\n',
            ))
        if environment.getattr(l_1_doc, 'choices'):
            pass
            t_10.append(
                'one of ',
            )
            l_2_loop = missing
            for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_doc, 'choices'), undefined):
                _loop_vars = {}
                pass
                t_10.extend((
                    '``',
                    str(t_1(l_2_c)),
                    '``',
                ))
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_10.append(
                        ', ',
                    )
            l_2_loop = l_2_c = missing
            t_10.append(
                ' (strict mode)\n',
            )
        if environment.getattr(l_1_doc, 'int_range'):
            pass
            t_10.extend((
                str(environment.getitem(environment.getattr(l_1_doc, 'int_range'), 0)),
                ' range [',
                str(environment.getitem(environment.getattr(l_1_doc, 'int_range'), 1)),
                ', ',
                str(environment.getitem(environment.getattr(l_1_doc, 'int_range'), 2)),
                ']\n',
            ))
        if environment.getattr(l_1_doc, 'finite'):
            pass
            t_10.append(
                'finite (strict mode rejects NaN and infinity)\n',
            )
        return concat(t_10)
    context.exported_vars.add('constraints')
    context.vars['constraints'] = l_0_constraints = Macro(environment, macro, 'constraints', ('doc',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_doc, l_1_rules):
        t_11 = []
        if l_1_doc is missing:
            l_1_doc = undefined("parameter 'doc' was not provided", name='doc')
        if l_1_rules is missing:
            l_1_rules = undefined("parameter 'rules' was not provided", name='rules')
        pass
        if environment.getattr(l_1_doc, 'deprecated'):
            pass
            t_11.append(
                'Deprecated (``[deprecated = true]`` in the schema): setting it emits a DeprecationWarning.\n',
            )
        if environment.getattr(l_1_doc, 'required'):
            pass
            t_11.append(
                'Required (proto2): a message without it does not serialize.\n',
            )
        if environment.getattr(l_1_doc, 'json_name'):
            pass
            t_11.extend((
                'JSON name: ``',
                str(environment.getattr(l_1_doc, 'json_name')),
                '``.\n',
            ))
        if environment.getattr(l_1_doc, 'appended'):
            pass
            t_11.append(
                'Assigning a list to ',
            )
            l_2_loop = missing
            for l_2_key, l_2_loop in LoopContext(environment.getattr(l_1_doc, 'appended'), undefined):
                _loop_vars = {}
                pass
                t_11.extend((
                    '``',
                    str(l_2_key),
                    '``',
                ))
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_11.append(
                        ', ',
                    )
            l_2_loop = l_2_key = missing
            t_11.extend((
                ' appends to the stored list',
                str(context.call((undefined(name='like') if l_0_like is missing else l_0_like), l_1_rules)),
                '; its other list keys are replaced.\n',
            ))
        if environment.getattr(l_1_doc, 'policy'):
            pass
            if (l_1_rules and environment.getattr(l_1_rules, 'policy')):
                pass
                t_11.extend((
                    'Compatible mode: ',
                    str(context.call((undefined(name='answer') if l_0_answer is missing else l_0_answer), environment.getattr(l_1_doc, 'policy'))),
                    str(context.call((undefined(name='like') if l_0_like is missing else l_0_like), l_1_rules)),
                    ", unlike the class-wide answer (see the class's Validation section).\n",
                ))
            else:
                pass
                t_11.extend((
                    'Compatible mode: ',
                    str(context.call((undefined(name='answer') if l_0_answer is missing else l_0_answer), environment.getattr(l_1_doc, 'policy'))),
                    str(context.call((undefined(name='like') if l_0_like is missing else l_0_like), l_1_rules)),
                    '. ',
                    str(context.call((undefined(name='strict_answer') if l_0_strict_answer is missing else l_0_strict_answer))),
                    '\n',
                ))
        if environment.getattr(l_1_doc, 'proto_field'):
            pass
            t_11.extend((
                'Reads and writes the proto field ``',
                str(environment.getattr(l_1_doc, 'proto_field')),
                '``.\n',
            ))
        if environment.getattr(l_1_doc, 'environment'):
            pass
            t_11.extend((
                'Read from ``',
                str(environment.getattr(l_1_doc, 'environment')),
                '`` when an instance is created, where it is set; a value that does not parse, or that this option cannot hold, is ignored with a warning naming the variable.',
            ))
            if (l_1_rules and context.call(environment.getattr(l_1_rules, 'difference'), 'environment')):
                pass
                t_11.extend((
                    ' ',
                    str(context.call(environment.getattr(l_1_rules, 'difference'), 'environment')),
                ))
        return concat(t_11)
    context.exported_vars.add('member_notes')
    context.vars['member_notes'] = l_0_member_notes = Macro(environment, macro, 'member_notes', ('doc', 'rules'), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_12 = []
        pass
        t_12.append(
            "An instance may be shared between threads. Each assignment is applied whole: a config dict, a list or a map is checked and built aside, then swapped in under the instance's lock, so assignments from several threads apply one after the other, and a getter returns the value from before or after an assignment, never part of one. A single-value option is one protobuf operation and takes no lock, and copies and pickles read without it (they cost no more than a plain object's copy): copy an instance while no other thread assigns to it. Objects a getter hands out live (the wrapped message, the nested messages in a config's dict) are protobuf's own: change them from one thread at a time.",
        )
        return concat(t_12)
    context.exported_vars.add('threads')
    context.vars['threads'] = l_0_threads = Macro(environment, macro, 'threads', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '9=18&12=33&13=38&16=58&19=67&20=74&21=80&22=83&27=89&29=97&30=100&35=106&36=112&37=115&42=147&44=155&45=158&50=164&51=169&52=173&54=180&55=186&57=203&58=206&60=213&66=221&67=228&70=233&73=238&74=242&76=245&77=251&79=270&80=272&81=276&83=284&86=290&87=294&89=297&90=301&95=313'
