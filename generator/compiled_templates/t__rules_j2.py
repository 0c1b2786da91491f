# @generated from templates/_rules.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '4c4e73e614a9b3d421346b7e21d3d2182b1bfa3742a1820976ec04205ceb398e'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_rules.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_condition = l_0_operand = l_0_sentence = l_0_note = missing
    try:
        t_1 = environment.filters['replace']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'replace' found.")
    pass
    def macro(l_1_c, l_1_q):
        t_2 = []
        if l_1_c is missing:
            l_1_c = undefined("parameter 'c' was not provided", name='c')
        if l_1_q is missing:
            l_1_q = undefined("parameter 'q' was not provided", name='q')
        pass
        if (environment.getattr(l_1_c, 'kind') == 'any'):
            pass
            l_2_loop = missing
            for l_2_item, l_2_loop in LoopContext(environment.getattr(l_1_c, 'items'), undefined):
                _loop_vars = {}
                pass
                t_2.append(
                    str(context.call((undefined(name='condition') if l_0_condition is missing else l_0_condition), l_2_item, l_1_q, _loop_vars=_loop_vars)),
                )
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_2.append(
                        ', or ',
                    )
            l_2_loop = l_2_item = missing
        elif (environment.getattr(l_1_c, 'kind') == 'all'):
            pass
            l_2_loop = missing
            for l_2_item, l_2_loop in LoopContext(environment.getattr(l_1_c, 'items'), undefined):
                _loop_vars = {}
                pass
                t_2.append(
                    str(context.call((undefined(name='condition') if l_0_condition is missing else l_0_condition), l_2_item, l_1_q, _loop_vars=_loop_vars)),
                )
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_2.append(
                        ' and ',
                    )
            l_2_loop = l_2_item = missing
        elif (environment.getattr(l_1_c, 'kind') == 'not'):
            pass
            t_2.extend((
                'not (',
                str(context.call((undefined(name='condition') if l_0_condition is missing else l_0_condition), environment.getitem(environment.getattr(l_1_c, 'items'), 0), l_1_q)),
                ')',
            ))
        elif environment.getattr(l_1_c, 'switch'):
            pass
            t_2.extend((
                str(l_1_q),
                str(environment.getattr(l_1_c, 'name')),
                str(l_1_q),
                ' is ',
                str(('on' if environment.getattr(l_1_c, 'on') else 'off')),
            ))
        elif (environment.getattr(l_1_c, 'op') == 'in'):
            pass
            t_2.extend((
                str(l_1_q),
                str(environment.getattr(l_1_c, 'name')),
                str(l_1_q),
                ' is one of ',
                str(environment.getattr(l_1_c, 'value_text')),
            ))
        else:
            pass
            t_2.extend((
                str(l_1_q),
                str(environment.getattr(l_1_c, 'name')),
                str(l_1_q),
                ' ',
                str(environment.getattr(l_1_c, 'op')),
                ' ',
                str(environment.getattr(l_1_c, 'value_text')),
            ))
        return concat(t_2)
    context.exported_vars.add('condition')
    context.vars['condition'] = l_0_condition = Macro(environment, macro, 'condition', ('c', 'q'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_o, l_1_q):
        t_3 = []
        if l_1_o is missing:
            l_1_o = undefined("parameter 'o' was not provided", name='o')
        if l_1_q is missing:
            l_1_q = undefined("parameter 'q' was not provided", name='q')
        pass
        if (environment.getattr(l_1_o, 'kind') == 'product'):
            pass
            t_3.append(
                'the product of ',
            )
            l_2_loop = missing
            for l_2_item, l_2_loop in LoopContext(environment.getattr(l_1_o, 'items'), undefined):
                _loop_vars = {}
                pass
                t_3.append(
                    str(context.call((undefined(name='operand') if l_0_operand is missing else l_0_operand), l_2_item, l_1_q, _loop_vars=_loop_vars)),
                )
                if (environment.getattr(l_2_loop, 'revindex') == 2):
                    pass
                    t_3.append(
                        ' and ',
                    )
                elif (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_3.append(
                        ', ',
                    )
            l_2_loop = l_2_item = missing
        elif (environment.getattr(l_1_o, 'kind') == 'field'):
            pass
            t_3.extend((
                str(l_1_q),
                str(environment.getattr(l_1_o, 'text')),
                str(l_1_q),
            ))
        elif (environment.getattr(l_1_o, 'kind') == 'input'):
            pass
            t_3.extend((
                'the ',
                str(t_1(context.eval_ctx, environment.getattr(l_1_o, 'text'), '_', ' ')),
            ))
        else:
            pass
            t_3.append(
                str(environment.getattr(l_1_o, 'text')),
            )
        return concat(t_3)
    context.exported_vars.add('operand')
    context.vars['operand'] = l_0_operand = Macro(environment, macro, 'operand', ('o', 'q'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rule, l_1_q):
        t_4 = []
        l_1_relation_words = missing
        if l_1_rule is missing:
            l_1_rule = undefined("parameter 'rule' was not provided", name='rule')
        if l_1_q is missing:
            l_1_q = undefined("parameter 'q' was not provided", name='q')
        pass
        l_1_relation_words = {'==': 'must equal', '!=': 'must differ from', '>': 'must be greater than', '>=': 'must be at least', '<': 'must be less than', '<=': 'must be at most'}
        if environment.getattr(l_1_rule, 'when'):
            pass
            t_4.extend((
                'When ',
                str(context.call((undefined(name='condition') if l_0_condition is missing else l_0_condition), environment.getattr(l_1_rule, 'when'), l_1_q)),
                ', ',
            ))
        if (environment.getattr(l_1_rule, 'kind') == 'effective_when'):
            pass
            t_4.extend((
                str(l_1_q),
                str(environment.getattr(l_1_rule, 'field')),
                str(l_1_q),
                ' is set but has no effect unless ',
                str(context.call((undefined(name='condition') if l_0_condition is missing else l_0_condition), environment.getattr(l_1_rule, 'condition'), l_1_q)),
            ))
        elif (environment.getattr(l_1_rule, 'kind') == 'conflicts_with'):
            pass
            t_4.extend((
                str(l_1_q),
                str(environment.getattr(l_1_rule, 'field')),
                str(l_1_q),
                ' and ',
                str(l_1_q),
                str(environment.getattr(l_1_rule, 'other')),
                str(l_1_q),
                ' are both on but only one takes effect: ',
                str(l_1_q),
                str(environment.getattr(l_1_rule, 'wins')),
                str(l_1_q),
                ' is kept and ',
                str(l_1_q),
                str((environment.getattr(l_1_rule, 'other') if (environment.getattr(l_1_rule, 'wins') == environment.getattr(l_1_rule, 'field')) else environment.getattr(l_1_rule, 'field'))),
                str(l_1_q),
                ' is turned off',
            ))
        else:
            pass
            t_4.extend((
                str(context.call((undefined(name='operand') if l_0_operand is missing else l_0_operand), environment.getitem(environment.getattr(l_1_rule, 'relation'), 0), l_1_q)),
                ' ',
                str(environment.getitem((undefined(name='relation_words') if l_1_relation_words is missing else l_1_relation_words), environment.getitem(environment.getattr(l_1_rule, 'relation'), 1))),
                ' ',
                str(context.call((undefined(name='operand') if l_0_operand is missing else l_0_operand), environment.getitem(environment.getattr(l_1_rule, 'relation'), 2), l_1_q)),
            ))
        return concat(t_4)
    context.exported_vars.add('sentence')
    context.vars['sentence'] = l_0_sentence = Macro(environment, macro, 'sentence', ('rule', 'q'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rule):
        t_5 = []
        if l_1_rule is missing:
            l_1_rule = undefined("parameter 'rule' was not provided", name='rule')
        pass
        t_5.extend((
            'Lint rule ``',
            str(environment.getattr(l_1_rule, 'code')),
            '``: ',
            str(context.call((undefined(name='sentence') if l_0_sentence is missing else l_0_sentence), l_1_rule, '``')),
            '.',
        ))
        return concat(t_5)
    context.exported_vars.add('note')
    context.vars['note'] = l_0_note = Macro(environment, macro, 'note', ('rule',), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '5=18&6=25&7=40&8=55&9=62&10=71&11=83&15=95&16=102&17=125&18=132&19=141&24=146&25=154&26=155&27=162&28=171&29=194&34=203&35=210'
