# @generated from templates/_literals.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '68e9cc92245d3c7a4309e0365c905def6768beb7fa5e8becbfe2ef56def67103'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_literals.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_tuple_of = missing
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    def macro(l_1_items, l_1_pad, l_1_caller):
        t_2 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        if l_1_pad is missing:
            l_1_pad = ''
        pass
        if (t_1(l_1_items) == 1):
            pass
            t_2.extend((
                '(',
                str(context.call(l_1_caller, environment.getitem(l_1_items, 0))),
                ',)',
            ))
        else:
            pass
            t_2.append(
                '(\n',
            )
            for l_2_item in l_1_items:
                _loop_vars = {}
                pass
                t_2.extend((
                    str(l_1_pad),
                    '    ',
                    str(context.call(l_1_caller, l_2_item, _loop_vars=_loop_vars)),
                    ',\n',
                ))
            l_2_item = missing
            t_2.extend((
                str(l_1_pad),
                ')',
            ))
        return concat(t_2)
    context.exported_vars.add('tuple_of')
    context.vars['tuple_of'] = l_0_tuple_of = Macro(environment, macro, 'tuple_of', ('items', 'pad'), False, False, True, context.eval_ctx.autoescape)

blocks = {}
debug_info = '6=18&7=25&8=37&9=41&11=48'
