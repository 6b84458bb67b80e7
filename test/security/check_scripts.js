// Static check of SQL scripts with PostgreSQL's own parser (libpg-query: the server's raw parser and PL/pgSQL's),
// for what makes an extension script safe to run as a superuser on behalf of a role that may own the schema it
// runs in (pgspot's rules):
//
//   PS001  an operator that is not OPERATOR(pg_catalog.op): an operator of the target schema with argument types
//          that match better would be chosen. Also the constructs that look "=" up by name and cannot be
//          qualified: IN (...), IS [NOT] DISTINCT FROM, NULLIF, JOIN ... USING, NATURAL JOIN, x IN (subquery).
//   PS002/PS007/PS015  CREATE OR REPLACE (function, view, aggregate, ...): it would take over an object someone
//          planted. PS010-PS014  CREATE ... IF NOT EXISTS, for the same reason.
//   PS003-PS005  an SQL or PL/pgSQL function without SET search_path (pg_catalog first, pg_temp last).
//   PS009  a simple CASE (CASE x WHEN ...), which compares with an "=" found by name.
//   PS016  a function call that is not schema-qualified.
//   PS017  a relation, or a type in an expression (a cast, a PL/pgSQL variable), that is not schema-qualified; also
//          an object named without its schema in a literal cast to regclass, regtype, regproc(edure), regoper(ator).
//   IC001  what this check cannot see into: EXECUTE of a string built at run time, a body in another language.
//   IC002  a change of the script's own search_path (SET search_path, set_config('search_path', ...)), which
//          everything above relies on: pg_catalog first, the target schema, pg_temp last.
//
// DO blocks, SQL function bodies and PL/pgSQL bodies are checked as well. Not findings: the types of a function's
// signature and the signatures in COMMENT ON / ALTER / DROP FUNCTION, which name objects rather than call them
// (a type name is looked up in pg_catalog first, and the first schema that has the name wins, so no planted type can
// be chosen; a relocatable extension cannot name its own schema there, as @extschema@ is not substituted for it).
//
// A finding that is accepted carries a comment on a line of its own just before its statement, with the rule and
// the reason:
//     -- check-scripts: accept PS016: <why this call is safe>
//
//   node check_scripts.js FILE... [--functions FILE...]
//                                           findings as FILE:LINE: RULE message; exit status 1 when there are any.
//                                           Of the files after --functions only the CREATE FUNCTION statements.
//   node check_scripts.js --names FILE...   every operator, function (with its number of arguments) and relation
//                                           the files use, one per line ("operator =", "function format 2",
//                                           "relation pg_depend"): what an attacker would plant traps for
'use strict';
const fs = require('fs');
const path = require('path');
const lpq = require('libpg-query');

const PLPGSQL_EXPR = 2;  // libpg-query's parse modes of a PL/pgSQL expression (RawParseMode)
const ASSIGN_MODES = new Set([3, 4, 5]);
const REG_TYPES_NAMING_OBJECTS = new Set(['regclass', 'regtype', 'regproc', 'regprocedure', 'regoper', 'regoperator']);

function names(list) { return (list || []).map(n => n.String.sval); }

// A checker over one file: findings are collected per top-level statement, so a statement's accept comments
// cover exactly the findings inside it (its body included).
class FileCheck {
    constructor(file, functionsOnly, ownFunctions) {
        this.file = file;
        this.ownFunctions = ownFunctions;
        this.functionsOnly = functionsOnly;
        this.text = fs.readFileSync(file, 'utf8');
        this.findings = [];
        this.accepted = 0;
        this.statements = 0;
        this.used = new Set();
    }

    lineOf(offset) { return this.text.slice(0, offset).split('\n').length; }

    run() {
        // psql's meta-commands (\echo ... \quit, \gset) are not SQL, and its variables (:"name", :'name') stand
        // for an identifier or a literal: blanked or unquoted, keeping every offset.
        const sql = this.text
            .replace(/^\\.*$/gm, line => ' '.repeat(line.length))
            .replace(/\\(gset|g)\b.*$/gm, command => ';'.padEnd(command.length))  // they end a statement
            .replace(/(?<!:):(["'])(\w+)\1/g, (_, quote, name) => ` ${quote}${name}${quote}`);
        let tree;
        try {
            tree = lpq.parseSync(sql);
        } catch (error) {
            this.findings.push(`${this.file}:1: parse error: ${error.message}`);
            return;
        }
        let previousEnd = 0;
        for (const entry of tree.stmts || []) {
            const start = entry.stmt_location || 0;
            const end = entry.stmt_len ? start + entry.stmt_len : sql.length;
            // Accept comments stand before their statement (after the previous one), never inside it.
            const statementText = sql.slice(previousEnd, start);
            previousEnd = end;
            this.statement = {
                line: this.lineOf(start),
                accepted: acceptedRules(statementText, this.file, this.lineOf(start)),
                found: [],
            };
            this.statements++;
            if (this.functionsOnly && !entry.stmt.CreateFunctionStmt) continue;
            this.walk(entry.stmt, { ctes: new Set() });
            for (const { rule, message } of this.statement.found) {
                if (this.statement.accepted.has(rule)) this.accepted++;
                else this.findings.push(`${this.file}:${this.statement.line}: ${rule} ${message}`);
            }
            for (const problem of this.statement.accepted.problems || []) this.findings.push(problem);
        }
    }

    find(rule, message) { this.statement.found.push({ rule, message }); }

    walk(node, scope) {
        if (Array.isArray(node)) {
            for (const item of node) this.walk(item, scope);
            return;
        }
        if (node === null || typeof node !== 'object') return;
        for (const [kind, value] of Object.entries(node)) {
            if (value !== null && typeof value === 'object') this.visit(kind, value, scope);
        }
    }

    visit(kind, node, scope) {
        switch (kind) {
        case 'SelectStmt': case 'InsertStmt': case 'UpdateStmt': case 'DeleteStmt': case 'MergeStmt': {
            const clause = node.withClause;
            if (clause) {
                scope = { ctes: new Set(scope.ctes) };
                for (const cte of clause.ctes || []) scope.ctes.add(cte.CommonTableExpr.ctename);
            }
            break;
        }
        case 'A_Expr': {
            const op = names(node.name);
            this.used.add(`operator ${op[op.length - 1]}`);
            if (['AEXPR_IN', 'AEXPR_DISTINCT', 'AEXPR_NOT_DISTINCT', 'AEXPR_NULLIF'].includes(node.kind))
                this.find('PS001', `${node.kind.slice(6)} compares with an "=" looked up by name`);
            else if (op.length !== 2 || op[0] !== 'pg_catalog')
                this.find('PS001', `operator ${op.join('.')} is not OPERATOR(pg_catalog.${op[op.length - 1]})`);
            break;
        }
        case 'SubLink': {
            if (['ANY_SUBLINK', 'ALL_SUBLINK', 'ROWCOMPARE_SUBLINK'].includes(node.subLinkType)) {
                const op = names(node.operName);
                this.used.add(`operator ${op.length ? op[op.length - 1] : '='}`);
                if (op.length !== 2 || op[0] !== 'pg_catalog')
                    this.find('PS001', `a subquery compared with ${op.length ? op.join('.') : 'IN (an "=" looked up by name)'}`);
            }
            break;
        }
        case 'JoinExpr':
            if (node.usingClause || node.isNatural) {
                this.used.add('operator =');
                this.find('PS001', 'JOIN USING/NATURAL compares with an "=" looked up by name');
            }
            break;
        case 'SortBy':
            if (node.useOp) {
                const op = names(node.useOp);
                if (op.length !== 2 || op[0] !== 'pg_catalog') this.find('PS001', `ORDER BY USING ${op.join('.')}`);
            }
            break;
        case 'CaseExpr':
            if (node.arg) this.find('PS009', 'simple CASE (CASE x WHEN ...) compares with an "=" looked up by name');
            break;
        case 'FuncCall': {
            const name = names(node.funcname);
            this.used.add(`function ${name[name.length - 1]} ${(node.args || []).length}`);
            if (name.length < 2) this.find('PS016', `function ${name.join('.')}() is not schema-qualified`);
            const first = node.args && node.args[0] && node.args[0].A_Const && node.args[0].A_Const.sval;
            if (name[name.length - 1] === 'set_config' && (!first || first.sval === 'search_path'))
                this.find('IC002', 'set_config() may change the search_path');
            break;
        }
        case 'DefineStmt':  // CREATE OPERATOR / AGGREGATE: the functions they are made of
            for (const d of (node.definition || []).map(item => item.DefElem)) {
                const value = d.arg && (d.arg.TypeName ? names(d.arg.TypeName.names) : d.arg.List ? names(d.arg.List.items) : null);
                if (value && /func|procedure|restrict|join/.test(d.defname)) this.checkNamedFunction(value, `${d.defname} of ${node.kind}`);
            }
            break;
        case 'CreateCastStmt': case 'CreateTrigStmt': case 'CreateOpClassItem': case 'CreateTransformStmt': {
            const reference = node.func || node.name || node.fromsql || node.tosql;
            const name = reference && reference.ObjectWithArgs ? names(reference.ObjectWithArgs.objname) : node.funcname ? names(node.funcname) : null;
            if (name && (kind !== 'CreateOpClassItem' || node.itemtype === 2)) this.checkNamedFunction(name, kind);
            break;
        }
        case 'VariableSetStmt':
            if (node.name === 'search_path' || node.kind === 'VAR_RESET_ALL') this.find('IC002', 'SET/RESET search_path');
            break;
        case 'AlterFunctionStmt':
            for (const action of node.actions || []) {
                const d = action.DefElem;
                if (d.defname === 'set' && d.arg.VariableSetStmt.name === 'search_path') this.checkSearchPath([d.arg.VariableSetStmt], names(node.func.objname).join('.'));
            }
            return;
        case 'RangeVar':
            this.used.add(`relation ${node.relname}`);
            if (!node.schemaname && !scope.ctes.has(node.relname))
                this.find('PS017', `relation ${node.relname} is not schema-qualified`);
            break;
        case 'TypeCast': {
            const type = names(node.typeName.names);
            if (type.length < 2) this.find('PS017', `type ${type.join('.')} of a cast is not schema-qualified`);
            const literal = node.arg && node.arg.A_Const && node.arg.A_Const.sval;
            if (literal && REG_TYPES_NAMING_OBJECTS.has(type[type.length - 1]) && !literal.sval.includes('.'))
                this.find('PS017', `'${literal.sval}' of a ${type[type.length - 1]} literal is not schema-qualified`);
            break;
        }
        case 'CreateFunctionStmt':
            // its options (SET search_path among them) and body are checkFunction's; its defaults are expressions
            this.checkFunction(node);
            this.walk(node.parameters, scope);
            return;
        case 'DoStmt': {
            const body = (node.args || []).find(a => a.DefElem.defname === 'as');
            const language = (node.args || []).find(a => a.DefElem.defname === 'language');
            if (!language || language.DefElem.arg.String.sval.toLowerCase() === 'plpgsql')
                this.checkPlpgsql(`CREATE FUNCTION do_block() RETURNS void LANGUAGE plpgsql AS $do_block$${body.DefElem.arg.String.sval}$do_block$`);
            else this.find('IC001', `DO block in language ${language.DefElem.arg.String.sval}`);
            break;
        }
        default:
            break;
        }
        if (node.replace === true && kind !== 'CreateFunctionStmt')
            this.find(kind === 'ViewStmt' ? 'PS015' : 'PS007', `${kind} with OR REPLACE`);
        if (node.if_not_exists === true) this.find(ifNotExistsRule(kind), `${kind} with IF NOT EXISTS`);
        this.walk(node, scope);
    }

    checkFunction(node) {
        const option = name => (node.options || []).map(o => o.DefElem).find(d => d.defname === name);
        const language = option('language') ? option('language').arg.String.sval.toLowerCase() : 'sql';
        const name = names(node.funcname).join('.');
        if (node.replace) this.find('PS002', `CREATE OR REPLACE FUNCTION ${name}`);
        if (language === 'c' || language === 'internal') return;
        if (language !== 'sql' && language !== 'plpgsql') return this.find('IC001', `function ${name} in language ${language}`);
        const settings = (node.options || []).map(o => o.DefElem).filter(d => d.defname === 'set')
            .map(d => d.arg.VariableSetStmt).filter(s => s.name === 'search_path');
        const securityDefiner = option('security') && option('security').arg.Boolean && option('security').arg.Boolean.boolval;
        if (settings.length === 0) this.find(securityDefiner ? 'PS003' : 'PS005', `function ${name} has no SET search_path`);
        else this.checkSearchPath(settings, name);
        const body = option('as');
        if (node.sql_body) {
            this.walk(node.sql_body, { ctes: new Set() });
        } else if (body && language === 'sql') {
            let tree;
            try {
                tree = lpq.parseSync(body.arg.List.items[0].String.sval);
            } catch (error) {
                this.find('parse', `the body of ${name}: ${error.message}`);
                return;
            }
            for (const entry of tree.stmts || []) this.walk(entry.stmt, { ctes: new Set() });
        } else if (body) {
            this.checkPlpgsql(this.functionText(node, body.arg.List.items[0].String.sval));
        }
    }

    // A function named in DDL is found by name and argument types: the extension's own (of the scripts checked) is
    // found in the target schema, where nothing else can have its signature; any other must be qualified.
    checkNamedFunction(name, where) {
        if (name.length < 2 && !this.ownFunctions.has(name[0]))
            this.find('PS016', `function ${name.join('.')} of ${where} is not schema-qualified`);
    }

    // The last SET search_path of a function is the one it keeps: pg_catalog first, pg_temp last, written out.
    checkSearchPath(settings, name) {
        const setting = settings[settings.length - 1];
        if (setting.kind === 'VAR_SET_CURRENT')
            return this.find('PS004', `function ${name}: search_path FROM CURRENT is whatever the session has`);
        const schemas = (setting.args || []).map(a => a.A_Const && a.A_Const.sval ? a.A_Const.sval.sval : '?');
        if (setting.kind !== 'VAR_SET_VALUE' || schemas[0] !== 'pg_catalog' || schemas[schemas.length - 1] !== 'pg_temp')
            this.find('PS004', `function ${name}: search_path ${schemas.join(', ') || '(reset)'} does not start with pg_catalog and end with pg_temp`);
    }

    // PL/pgSQL's parser takes a whole CREATE FUNCTION; the body is checked with a neutral signature.
    functionText(node, body) {
        const parameters = (node.parameters || []).map(p => {
            const parameter = p.FunctionParameter;
            const mode = { FUNC_PARAM_OUT: 'OUT ', FUNC_PARAM_INOUT: 'INOUT ', FUNC_PARAM_VARIADIC: 'VARIADIC ', FUNC_PARAM_TABLE: 'OUT ' }[parameter.mode] || '';
            return `${mode}${parameter.name ? `"${parameter.name}" ` : ''}${typeText(parameter.argType)}`;
        });
        const returns = node.returnType ? `RETURNS ${node.returnType.setof ? 'SETOF ' : ''}${typeText(node.returnType)}` : '';
        return `CREATE FUNCTION checked(${parameters.join(', ')}) ${returns} LANGUAGE plpgsql AS $checked$${body}$checked$`;
    }

    checkPlpgsql(functionText) {
        let tree;
        try {
            tree = lpq.parsePlPgSQLSync(functionText);
        } catch (error) {
            this.find('parse', `PL/pgSQL: ${error.message}`);
            return;
        }
        const visit = node => {
            if (Array.isArray(node)) return node.forEach(visit);
            if (node === null || typeof node !== 'object') return;
            if (node.PLpgSQL_stmt_dynexecute || node.PLpgSQL_stmt_dynfors) this.checkDynamic(node.PLpgSQL_stmt_dynexecute || node.PLpgSQL_stmt_dynfors);
            if (node.PLpgSQL_expr) this.checkPlpgsqlExpression(node.PLpgSQL_expr);
            if (node.PLpgSQL_stmt_case && node.PLpgSQL_stmt_case.t_expr)
                this.find('PS009', 'simple CASE statement (CASE x WHEN ...) compares with an "=" looked up by name');
            if (node.PLpgSQL_var && node.PLpgSQL_var.lineno !== undefined && !node.PLpgSQL_var.refname.startsWith('__Case__'))
                this.checkVariableType(node.PLpgSQL_var);
            for (const value of Object.values(node)) visit(value);
        };
        visit(tree);
    }

    checkPlpgsqlExpression(expression) {
        let query = expression.query;
        // A simple CASE statement's branches are compiled to "__Case__Variable_N__" IN (...): PS009 reports them.
        if (/^"__Case__Variable_\d+__" IN /.test(query)) return;
        if (ASSIGN_MODES.has(expression.parseMode)) query = `SELECT ${query.replace(/^[^:=]*:?=/, '')}`;
        else if (expression.parseMode === PLPGSQL_EXPR) query = `SELECT ${query}`;
        let tree;
        try {
            tree = lpq.parseSync(query);
        } catch (error) {
            this.find('parse', `PL/pgSQL expression ${JSON.stringify(expression.query)}: ${error.message}`);
            return;
        }
        for (const entry of tree.stmts || []) this.walk(entry.stmt, { ctes: new Set() });
    }

    // EXECUTE of a constant string is checked as the statement it is; a string built at run time cannot be.
    checkDynamic(statement) {
        const query = statement.query.PLpgSQL_expr.query;
        let constant;
        try {
            const value = lpq.parseSync(`SELECT ${query}`).stmts[0].stmt.SelectStmt.targetList[0].ResTarget.val;
            constant = value.A_Const && value.A_Const.sval && value.A_Const.sval.sval;
        } catch (error) {
            constant = undefined;
        }
        if (constant === undefined) return this.find('IC001', `EXECUTE of a string built at run time: ${query}`);
        try {
            for (const entry of lpq.parseSync(constant).stmts || []) this.walk(entry.stmt, { ctes: new Set() });
        } catch (error) {
            this.find('parse', `EXECUTE ${JSON.stringify(constant)}: ${error.message}`);
        }
    }

    checkVariableType(variable) {
        const datatype = variable.datatype && variable.datatype.PLpgSQL_type;
        if (!datatype || !datatype.typname) return this.find('IC001', `the type of variable ${variable.refname} (%TYPE?)`);
        const typname = datatype.typname;
        if (['record', 'boolean'].includes(typname.toLowerCase())) return;
        // A type as the server reads it: SQL's own spellings (bigint, integer, ...) come out qualified.
        let tree;
        try {
            tree = lpq.parseSync(`SELECT NULL::${typname}`);
        } catch (error) {
            return this.find('parse', `the type of variable ${variable.refname}: ${error.message}`);
        }
        const type = names(tree.stmts[0].stmt.SelectStmt.targetList[0].ResTarget.val.TypeCast.typeName.names);
        if (type.length < 2) this.find('PS017', `type ${typname} of variable ${variable.refname} is not schema-qualified`);
    }
}

function typeText(typeName) {
    const type = names(typeName.names).map(n => `"${n}"`).join('.');
    return type + (typeName.arrayBounds ? '[]'.repeat(typeName.arrayBounds.length) : '');
}

function ifNotExistsRule(kind) {
    return { CreateSchemaStmt: 'PS010', CreateSeqStmt: 'PS011', CreateStmt: 'PS012', CreateForeignServerStmt: 'PS013',
             IndexStmt: 'PS014' }[kind] || 'PS012';
}

// The rules a statement's comments accept, each with a reason: "-- check-scripts: accept PS016, PS017: reason".
function acceptedRules(statementText, file, line) {
    const accepted = new Set();
    accepted.problems = [];
    for (const match of statementText.matchAll(/^\s*--\s*check-scripts:\s*accept\s+([^:\n]*?)\s*:\s*(.*)$/gm)) {
        const rules = match[1].split(/[\s,]+/).filter(Boolean);
        if (!match[2].trim() || rules.some(rule => !/^(PS|IC)\d{3}$/.test(rule)))
            accepted.problems.push(`${file}:${line}: an accept comment needs rules (PSnnn, ICnnn) and a reason: ${match[0]}`);
        for (const rule of rules) accepted.add(rule);
    }
    return accepted;
}

async function main() {
    const args = process.argv.slice(2);
    const listNames = args[0] === '--names';
    const files = listNames ? args.slice(1) : args;
    // Files after --functions: only their CREATE FUNCTION statements are checked (the examples' other statements
    // are a user's own queries, run with the user's own rights).
    const functionsFrom = files.indexOf('--functions');
    if (functionsFrom >= 0) files.splice(functionsFrom, 1);
    if (files.length === 0) {
        console.error('usage: node check_scripts.js [--names] FILE... [--functions FILE...]');
        process.exit(2);
    }
    await lpq.loadModule();
    // The functions the extension scripts create (those before --functions).
    const ownFunctions = new Set();
    for (const file of files.slice(0, functionsFrom >= 0 ? functionsFrom : files.length)) {
        const text = fs.readFileSync(file, 'utf8').replace(/^\\.*$/gm, '');
        try {
            for (const entry of lpq.parseSync(text).stmts || [])
                if (entry.stmt.CreateFunctionStmt) ownFunctions.add(names(entry.stmt.CreateFunctionStmt.funcname).pop());
        } catch (error) {
            // reported by the file's own check
        }
    }
    const used = new Set();
    let findings = [], accepted = 0, statements = 0;
    for (const [index, file] of files.entries()) {
        const check = new FileCheck(file, functionsFrom >= 0 && index >= functionsFrom, ownFunctions);
        check.run();
        findings = findings.concat(check.findings);
        accepted += check.accepted;
        statements += check.statements;
        check.used.forEach(name => used.add(name));
    }
    if (listNames) {
        [...used].sort().forEach(name => console.log(name));
        process.exit(findings.some(f => / parse error: /.test(f)) ? 1 : 0);
    }
    findings.forEach(finding => console.log(finding));
    console.log(`${files.length} scripts, ${statements} statements: ${findings.length} findings, ${accepted} accepted with a reason`);
    process.exit(findings.length ? 1 : 0);
}

main().catch(error => {
    console.error(error);
    process.exit(2);
});
