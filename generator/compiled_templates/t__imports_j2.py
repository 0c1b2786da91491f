# @generated from templates/_imports.j2 by python tests/goldens/regen.py. DO NOT EDIT.
SOURCE_KEY = '87814e0fcfde23db6885275300f99038a1ee4859d4f01afd5d84bc3e05bd8908'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_imports.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_pb2_import = l_0_pb2_import_for_effect = missing
    pass
    def macro(l_1_m, l_1_reexport):
        t_1 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        if l_1_reexport is missing:
            l_1_reexport = False
        pass
        t_1.extend((
            'from ',
            str(environment.getattr(l_1_m, 'import_from')),
            ' import ',
            str(environment.getattr(l_1_m, 'module')),
        ))
        if (l_1_reexport or (environment.getattr(l_1_m, 'alias') != environment.getattr(l_1_m, 'module'))):
            pass
            t_1.extend((
                ' as ',
                str(environment.getattr(l_1_m, 'alias')),
            ))
        return concat(t_1)
    context.exported_vars.add('pb2_import')
    context.vars['pb2_import'] = l_0_pb2_import = Macro(environment, macro, 'pb2_import', ('m', 'reexport'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_m):
        t_2 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        t_2.extend((
            'from ',
            str(environment.getattr(l_1_m, 'import_from')),
            ' import ',
            str(environment.getattr(l_1_m, 'module')),
            ' as _',
            str(environment.getattr(l_1_m, 'alias')),
            '  # noqa: F401',
        ))
        return concat(t_2)
    context.exported_vars.add('pb2_import_for_effect')
    context.vars['pb2_import_for_effect'] = l_0_pb2_import_for_effect = Macro(environment, macro, 'pb2_import_for_effect', ('m',), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=12&4=21&6=34&7=41'
