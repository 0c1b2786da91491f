"""The jinja2 templates, installed as package data of ``fleet_strategy_codegen.templates``."""
