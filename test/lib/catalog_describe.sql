-- What the planner and every caller see of idcodec in the current database, one line per object: its version; each
-- function's signature, argument names and defaults, result, volatility, strictness, parallel safety, cost and rows,
-- C symbol and library, and comment; each operator's function, commutator, negator, estimators, HASHES and MERGES;
-- each operator class; every member of its operator families; anything else it owns; its types and casts. Two databases with equal
-- output have the same idcodec (test/integration/catalog.sh, test/integration/citus_update.sh).
SELECT e.extversion FROM pg_extension e WHERE e.extname = 'idcodec';
SELECT concat_ws(' | ', p.oid::regprocedure::text COLLATE "C", coalesce(array_to_string(p.proargnames, ','), '-'),
                 pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), p.prokind, p.provolatile,
                 p.proisstrict, p.proparallel, p.procost, p.prorows, p.proretset, p.prosrc, p.probin,
                 p.prosecdef, p.proleakproof, coalesce(array_to_string(p.proconfig, ','), '-'),
                 coalesce(obj_description(p.oid, 'pg_proc'), '(no comment)')) AS function
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
ORDER BY function;
-- its operators, and every member of its operator families (the planner's view of the types)
SELECT concat_ws(' | ', o.oid::regoperator::text COLLATE "C", o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator,
                 o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge) AS operator
FROM pg_operator o
JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
ORDER BY operator;
SELECT concat_ws(' | ', c.opcname COLLATE "C", m.amname, c.opcintype::regtype, c.opcdefault, f.opfname, c.opckeytype::regtype)
       AS operator_class
FROM pg_opclass c JOIN pg_am m ON m.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = c.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
ORDER BY operator_class;
WITH families AS (
    SELECT f.oid, f.opfname, m.amname FROM pg_opfamily f JOIN pg_am m ON m.oid = f.opfmethod
    JOIN pg_depend d ON d.classid = 'pg_opfamily'::regclass AND d.objid = f.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec')
SELECT member FROM (
    SELECT concat_ws(' | ', f.opfname COLLATE "C", f.amname, 'operator', a.amopstrategy, a.amoplefttype::regtype,
                     a.amoprighttype::regtype, a.amopopr::regoperator, a.amoppurpose, a.amopsortfamily) AS member
    FROM pg_amop a JOIN families f ON f.oid = a.amopfamily
    UNION ALL
    SELECT concat_ws(' | ', f.opfname COLLATE "C", f.amname, 'function', p.amprocnum, p.amproclefttype::regtype,
                     p.amprocrighttype::regtype, p.amproc::regprocedure)
    FROM pg_amproc p JOIN families f ON f.oid = p.amprocfamily) members
ORDER BY member;
-- anything else the extension owns
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) COLLATE "C" AS object
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
WHERE d.deptype = 'e' AND d.classid <> 'pg_proc'::regclass ORDER BY object;
-- its types and casts, with what the planner and callers rely on
SELECT concat_ws(' | ', t.oid::regtype::text COLLATE "C", t.typlen, t.typbyval, t.typtype, t.typcategory, t.typispreferred,
                 t.typalign, t.typstorage, t.typinput, t.typoutput, t.typreceive, t.typsend, t.typmodin, t.typmodout,
                 t.typanalyze, t.typsubscript, t.typelem::regtype, t.typarray::regtype, t.typcollation) AS type
FROM pg_type t
JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
ORDER BY type;
SELECT concat_ws(' | ', c.castsource::regtype::text COLLATE "C", c.casttarget::regtype::text COLLATE "C",
                 c.castfunc::regprocedure, c.castcontext, c.castmethod) AS "cast"
FROM pg_cast c
JOIN pg_depend d ON d.classid = 'pg_cast'::regclass AND d.objid = c.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
ORDER BY "cast";
