# @generated from templates/_doc.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '89fc6f5e8a14e512865770e5185a357ba2ace741968d012188f23b0029e50aed'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_doc.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_notes = l_0_rule_words = l_0_paragraphs = l_0_bullet = l_0_docbody = missing
    try:
        t_1 = environment.filters['indent']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'indent' found.")
    try:
        t_2 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_3 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_4 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_5 = environment.filters['replace']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'replace' found.")
    try:
        t_6 = environment.filters['select']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'select' found.")
    try:
        t_7 = environment.filters['wordwrap']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'wordwrap' found.")
    try:
        t_8 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_notes = context.vars['notes'] = environment.get_template('_notes.j2', '_doc.j2')._get_default_module(context)
    context.exported_vars.discard('notes')
    l_0_rule_words = context.vars['rule_words'] = environment.get_template('_rules.j2', '_doc.j2')._get_default_module(context)
    context.exported_vars.discard('rule_words')
    def macro(l_1_text):
        t_9 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_9.append(
            str(t_2(context.eval_ctx, t_4(context, t_4(context, t_6(context, context.call(environment.getattr(l_1_text, 'split'), '\n')), 'wordwrap', 72, False, '\n', False), 'indent', 4, True), '\n\n')),
        )
        return concat(t_9)
    context.exported_vars.add('paragraphs')
    context.vars['paragraphs'] = l_0_paragraphs = Macro(environment, macro, 'paragraphs', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_10 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_10.append(
            str(str_join(('    ', t_1(t_7(environment, str_join(('* ', l_1_text, )), 70, False, '\n', False), 6), ))),
        )
        return concat(t_10)
    context.exported_vars.add('bullet')
    context.vars['bullet'] = l_0_bullet = Macro(environment, macro, 'bullet', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_doc, l_1_rules):
        t_11 = []
        l_1_package = resolve('package')
        l_1_example_import = resolve('example_import')
        l_1_constraints = missing
        if l_1_doc is missing:
            l_1_doc = undefined("parameter 'doc' was not provided", name='doc')
        if l_1_rules is missing:
            l_1_rules = None
        pass
        t_11.extend((
            str(environment.getattr(l_1_doc, 'summary')),
            '\n',
        ))
        for l_2_p in environment.getattr(l_1_doc, 'paragraphs'):
            _loop_vars = {}
            pass
            t_11.extend((
                '\n',
                str(l_2_p),
                '\n',
            ))
        l_2_p = missing
        if ((environment.getattr(l_1_doc, 'rules') and environment.getattr(environment.getattr(l_1_doc, 'rules'), 'scalars')) and environment.getattr(environment.getattr(l_1_doc, 'rules'), 'policy')):
            pass
            t_11.extend((
                '\nValidation:\n',
                str(context.call((undefined(name='paragraphs') if l_0_paragraphs is missing else l_0_paragraphs), context.call(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'validation'), environment.getattr(l_1_doc, 'rules')))),
                '\n',
            ))
        if (environment.getattr(l_1_doc, 'rules') and environment.getattr(environment.getattr(l_1_doc, 'rules'), 'defaults')):
            pass
            t_11.extend((
                '\nDefaults:\n',
                str(context.call((undefined(name='paragraphs') if l_0_paragraphs is missing else l_0_paragraphs), context.call(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'defaults'), environment.getattr(l_1_doc, 'rules')))),
                '\n',
            ))
        if (environment.getattr(l_1_doc, 'rules') and environment.getattr(environment.getattr(l_1_doc, 'rules'), 'configs')):
            pass
            t_11.extend((
                '\nConfig dicts:\n',
                str(context.call((undefined(name='paragraphs') if l_0_paragraphs is missing else l_0_paragraphs), context.call(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'config_dicts'), environment.getattr(l_1_doc, 'rules')))),
                '\n',
            ))
        if environment.getattr(l_1_doc, 'rules'):
            pass
            t_11.extend((
                '\nThreads:\n',
                str(context.call((undefined(name='paragraphs') if l_0_paragraphs is missing else l_0_paragraphs), context.call(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'threads')))),
                '\n',
            ))
        if (environment.getattr(l_1_doc, 'rules') and environment.getattr(environment.getattr(l_1_doc, 'rules'), 'member_differences')):
            pass
            t_11.extend((
                '\nDifferences from ',
                str((environment.getattr(environment.getattr(l_1_doc, 'rules'), 'reference') or 'the reference')),
                ':\n',
            ))
            def t_12(fiter):
                for l_2_line in fiter:
                    if l_2_line:
                        yield l_2_line
            for l_2_line in t_12(context.call(environment.getattr(context.call(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'member_differences'), environment.getattr(l_1_doc, 'rules')), 'split'), '\n')):
                _loop_vars = {}
                pass
                t_11.extend((
                    str(context.call((undefined(name='bullet') if l_0_bullet is missing else l_0_bullet), l_2_line, _loop_vars=_loop_vars)),
                    '\n',
                ))
            l_2_line = missing
        if environment.getattr(l_1_doc, 'type_text'):
            pass
            t_11.extend((
                '\nType:\n    ``',
                str(environment.getattr(l_1_doc, 'type_text')),
                '``\n',
            ))
        if ((not t_8(environment.getattr(l_1_doc, 'default_text'))) and (not environment.getattr(l_1_doc, 'table'))):
            pass
            t_11.extend((
                '\nDefault:\n    ``',
                str(environment.getattr(l_1_doc, 'default_text')),
                '``\n',
            ))
        l_1_constraints = t_3(context.eval_ctx, t_6(context, context.call(environment.getattr(context.call(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'constraints'), l_1_doc), 'split'), '\n')))
        if (undefined(name='constraints') if l_1_constraints is missing else l_1_constraints):
            pass
            t_11.append(
                '\nConstraints:\n',
            )
            for l_2_c in (undefined(name='constraints') if l_1_constraints is missing else l_1_constraints):
                _loop_vars = {}
                pass
                t_11.extend((
                    '    * ',
                    str(l_2_c),
                    '\n',
                ))
            l_2_c = missing
        if environment.getattr(l_1_doc, 'table'):
            pass
            t_11.append(
                '\nKeys:\n',
            )
            for l_2_line in environment.getattr(l_1_doc, 'table'):
                _loop_vars = {}
                pass
                t_11.extend((
                    '    ',
                    str(l_2_line),
                    '\n',
                ))
            l_2_line = missing
            if environment.getattr(l_1_doc, 'keys_in_full'):
                pass
                t_11.extend((
                    '\n    Each key in full: ``',
                    str(environment.getattr(l_1_doc, 'keys_in_full')),
                    '`` in ``',
                    str((undefined(name='package') if l_1_package is missing else l_1_package)),
                    '.types``.\n',
                ))
        def t_13(fiter):
            for l_2_note in fiter:
                if l_2_note:
                    yield l_2_note
        for l_2_note in t_13(context.call(environment.getattr(context.call(environment.getattr((undefined(name='notes') if l_0_notes is missing else l_0_notes), 'member_notes'), l_1_doc, l_1_rules), 'split'), '\n')):
            _loop_vars = {}
            pass
            t_11.extend((
                '\nNote:\n',
                str(context.call((undefined(name='paragraphs') if l_0_paragraphs is missing else l_0_paragraphs), l_2_note, _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_note = missing
        for l_2_rule in environment.getattr(l_1_doc, 'lint_rules'):
            _loop_vars = {}
            pass
            t_11.extend((
                '\nNote:\n',
                str(context.call((undefined(name='paragraphs') if l_0_paragraphs is missing else l_0_paragraphs), context.call(environment.getattr((undefined(name='rule_words') if l_0_rule_words is missing else l_0_rule_words), 'note'), l_2_rule, _loop_vars=_loop_vars), _loop_vars=_loop_vars)),
                '\n',
            ))
        l_2_rule = missing
        if environment.getattr(l_1_doc, 'example'):
            pass
            t_11.extend((
                '\nExamples:\n',
                str(t_1(t_5(context.eval_ctx, context.call(environment.getattr(environment.getattr(l_1_doc, 'example'), 'rstrip')), environment.getitem((undefined(name='example_import') if l_1_example_import is missing else l_1_example_import), 0), environment.getitem((undefined(name='example_import') if l_1_example_import is missing else l_1_example_import), 1)), 4, first=True)),
                '\n',
            ))
        return concat(t_11)
    context.exported_vars.add('docbody')
    context.vars['docbody'] = l_0_docbody = Macro(environment, macro, 'docbody', ('doc', 'rules'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=60&4=62&6=64&7=70&10=75&11=81&13=86&14=97&15=100&17=105&19=109&22=113&24=116&27=120&29=123&32=127&34=130&37=134&39=137&41=141&42=144&43=152&46=156&49=160&51=163&54=167&56=170&57=171&60=176&61=181&64=185&67=190&68=195&70=199&72=203&75=208&78=217&80=221&83=226&85=230&88=234'
