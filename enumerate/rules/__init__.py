"""The rules of a table: dealer qualifier, paytables, ante pays and the optional progressive.

``qualifier`` parses qualifiers as rules state them; ``variant`` holds the rule set of one table;
``variant_file`` reads and validates variant files (TOML) and the built-in library in
``variants/``.  Nothing here counts: the rules enter the numbers in :mod:`enumerate.analysis.base`.
"""
