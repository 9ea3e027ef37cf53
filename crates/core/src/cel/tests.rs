//! Table tests that read as examples: expression in, value or exact error text out. The
//! expected texts were checked against cel-go configured as Kubernetes configures it.

use super::*;
use crate::api::quantity::Quantity;

/// The DRA selector environment: `device` is a `kubernetes.DRADevice` object.
fn dra_env() -> Env {
    let device = ObjectType::new(
        "kubernetes.DRADevice",
        vec![
            ("driver", Type::String),
            ("attributes", Type::map(Type::String, Type::map(Type::String, Type::Dyn))),
            ("capacity", Type::map(Type::String, Type::map(Type::String, Type::Quantity))),
            ("allowMultipleAllocations", Type::Bool),
        ],
    );
    let mut env = Env::new();
    env.declare("device", Type::Object(device));
    env
}

fn q(s: &str) -> Value {
    Value::Quantity(Quantity::parse(s).unwrap())
}

fn semver(s: &str) -> Value {
    Value::Semver(Semver::parse(s).unwrap())
}

/// A device as DRA's `DeviceMatches` presents it: unknown domains look up as empty maps.
fn device(driver: &str, attributes: MapValue, capacity: MapValue) -> Activation {
    let domain_map = |inner: MapValue| {
        Value::map(MapValue::new().with(driver, Value::map(inner)).with_missing(Value::map(MapValue::new())))
    };
    let device = ObjectValue::new("kubernetes.DRADevice")
        .with("driver", Value::string(driver))
        .with("attributes", domain_map(attributes))
        .with("capacity", domain_map(capacity));
    let mut vars = Activation::new();
    vars.insert("device", Value::object(device));
    vars
}

/// An NVIDIA A100 GPU.
fn a100() -> Activation {
    device(
        "gpu.nvidia.com",
        MapValue::new()
            .with("type", Value::string("gpu"))
            .with("productName", Value::string("NVIDIA A100-SXM4-40GB"))
            .with("architecture", Value::string("Ampere"))
            .with("uuid", Value::string("GPU-4a7d1c6e"))
            .with("cudaComputeCapability", semver("8.0.0"))
            .with("driverVersion", semver("550.54.15")),
        MapValue::new().with("memory", q("40Gi")),
    )
}

/// A MIG slice of that GPU.
fn mig() -> Activation {
    device(
        "gpu.nvidia.com",
        MapValue::new()
            .with("type", Value::string("mig"))
            .with("profile", Value::string("1g.5gb"))
            .with("productName", Value::string("NVIDIA A100-SXM4-40GB"))
            .with("architecture", Value::string("Ampere"))
            .with("cudaComputeCapability", semver("8.0.0"))
            .with("driverVersion", semver("550.54.15")),
        MapValue::new().with("multiprocessors", q("14")).with("memory", q("4864Mi")),
    )
}

fn run(env: &Env, vars: &Activation, src: &str) -> Result<Value, String> {
    let program = compile(src, env).map_err(|e| format!("compile: {e}"))?;
    program.eval(vars).map_err(|e| e.to_string())
}

#[test]
fn dra_selectors_match_the_devices_they_describe() {
    let env = dra_env();
    // (selector, matches the A100, matches the MIG slice)
    let cases: &[(&str, bool, bool)] = &[
        ("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'", true, false),
        ("device.attributes['gpu.nvidia.com'].productName.lowerAscii().matches('^.*a100.*$')", true, true),
        ("device.attributes['gpu.nvidia.com'].cudaComputeCapability.isGreaterThan(semver(\"7.5.0\"))", true, true),
        ("device.attributes['gpu.nvidia.com'].driverVersion.isLessThan(semver('550.54.14'))", false, false),
        ("device.attributes['gpu.nvidia.com'].driverVersion.major() >= 550", true, true),
        ("\"gpu.nvidia.com\" in device.attributes", true, true),
        ("\"x.com\" in device.attributes", false, false),
        ("has(device.attributes['gpu.nvidia.com'].uuid)", true, false),
        ("has(device.attributes['gpu.nvidia.com'].profile)", false, true),
        (
            "cel.bind(dra, device.attributes[\"gpu.nvidia.com\"], dra.type == \"gpu\" && dra.architecture == \"Ampere\")",
            true,
            false,
        ),
        ("device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('10Gi')) >= 0", true, false),
        ("device.capacity['gpu.nvidia.com'].memory == quantity('40960Mi')", true, false),
        ("device.attributes['gpu.nvidia.com'].exists(k, k == 'profile')", false, true),
    ];
    for (src, on_a100, on_mig) in cases {
        assert_eq!(run(&env, &a100(), src), Ok(Value::Bool(*on_a100)), "{src} on the A100");
        assert_eq!(run(&env, &mig(), src), Ok(Value::Bool(*on_mig)), "{src} on the MIG slice");
    }
}

#[test]
fn dra_selectors_specific_to_one_device() {
    let env = dra_env();
    let mig_only = [
        "device.attributes['gpu.nvidia.com'].profile == '1g.5gb'",
        "device.capacity['gpu.nvidia.com'].multiprocessors.isGreaterThan(quantity(\"10\")) \
         && device.capacity['gpu.nvidia.com'].memory.isGreaterThan(quantity(\"4Gi\"))",
    ];
    for src in mig_only {
        assert_eq!(run(&env, &mig(), src), Ok(Value::Bool(true)), "{src}");
    }
    // The A100 has no `profile` attribute: comparing a missing key is an error, not false.
    assert_eq!(run(&env, &a100(), mig_only[0]), Err("no such key: profile".to_owned()));
    // Another domain's capacity is an empty map, so its `memory` is missing.
    let other = "device.capacity['gpu.example.com'].memory.compareTo(quantity('10Gi')) >= 0";
    assert_eq!(run(&env, &a100(), other), Err("no such key: memory".to_owned()));
}

#[test]
fn dra_selector_errors() {
    let env = dra_env();
    let eval_errors = [
        ("device.attributes[\"gpu.nvidia.com\"].index == 0", "no such key: index"),
        ("device.attributes[\"no-such-domain\"].noSuchAttr", "no such key: noSuchAttr"),
        ("device.allowMultipleAllocations", "no such key: allowMultipleAllocations"),
    ];
    for (src, want) in eval_errors {
        assert_eq!(run(&env, &a100(), src), Err(want.to_owned()), "{src}");
    }
    let compile_errors = [
        (
            "device.capacity['gpu.nvidia.com'].memory > quantity(\"1Gi\")",
            "ERROR: <input>:1:42: found no matching overload for '_>_' applied to '(kubernetes.Quantity, kubernetes.Quantity)'\n \
             | device.capacity['gpu.nvidia.com'].memory > quantity(\"1Gi\")\n \
             | .........................................^",
        ),
        (
            "device.attributes[true].someBoolean",
            "ERROR: <input>:1:18: found no matching overload for '_[_]' applied to '(map(string, map(string, dyn)), bool)'\n \
             | device.attributes[true].someBoolean\n \
             | .................^",
        ),
        (
            "device.allowMultipleAllocationz",
            "ERROR: <input>:1:7: undefined field 'allowMultipleAllocationz'\n \
             | device.allowMultipleAllocationz\n \
             | ......^",
        ),
        (
            "device.driver.foo",
            "ERROR: <input>:1:14: type 'string' does not support field selection\n | device.driver.foo\n | .............^",
        ),
        (
            "device.capacity['gpu.nvidia.com'].memory.isGreaterThan(1)",
            "ERROR: <input>:1:55: found no matching overload for 'isGreaterThan' applied to 'kubernetes.Quantity.(int)'\n \
             | device.capacity['gpu.nvidia.com'].memory.isGreaterThan(1)\n \
             | ......................................................^",
        ),
    ];
    for (src, want) in compile_errors {
        let err = compile(src, &env).map(|_| ()).unwrap_err();
        assert_eq!(err.to_string(), want, "{src}");
    }
}

#[test]
fn result_types() {
    let env = dra_env();
    let cases = [
        ("1", "int"),
        ("device.attributes['x'].y", "dyn"),
        ("device.attributes['x'].y > 0", "bool"),
        ("device.capacity['x']", "map(string, kubernetes.Quantity)"),
        ("[1, 2].map(x, x > 1)", "list(bool)"),
        ("{'a': 1u}", "map(string, uint)"),
        ("null", "null_type"),
        ("[]", "list(dyn)"),
        ("device", "kubernetes.DRADevice"),
    ];
    for (src, want) in cases {
        assert_eq!(compile(src, &env).unwrap().result_type().to_string(), want, "{src}");
    }
}

/// Expressions that need no variables, and the value they evaluate to (as `Value` prints).
#[test]
fn values() {
    let cases = [
        // Precedence and arithmetic.
        ("1 + 2 * 3 - 4 / 2 % 3", "5"),
        ("-5 / 2", "-2"),
        ("-5 % 3", "-2"),
        ("10 - 2 - 3", "5"),
        ("-(1 + 2) * 3", "-9"),
        ("1 < 2 == true", "true"),
        ("false ? 1 : true ? 2 : 3", "2"),
        ("!!true", "true"),
        ("--1", "1"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("0xFFFFFFFFFFFFFFFFu", "18446744073709551615u"),
        ("5u / 2u", "2u"),
        ("1.0 / 0.0", "+Inf"),
        ("2.5 * 2.0", "5"),
        (".5e1", "5"),
        // Cross-type numbers.
        ("1 < 1.5", "true"),
        ("1u < 2", "true"),
        ("dyn(1) == 1.0", "true"),
        ("dyn(1u) == dyn(1)", "true"),
        ("dyn(1.5) == 1", "false"),
        // Strings and escapes.
        ("'a' + \"b\" + '''c''' + r'\\n'", "\"abc\\\\n\""),
        ("'\\x41\\101\\u0041\\U00000041'", "\"AAAA\""),
        ("\"\\a\\b\\f\\n\\r\\t\\v\\\\\\'\\\"\\?\\`\".size()", "12"),
        ("b'\\xff' == b'\\377'", "true"),
        ("size('héllo')", "5"),
        ("'日本語'.charAt(1)", "\"本\""),
        ("'日本語'.indexOf('語')", "2"),
        ("'hello'.lastIndexOf('l')", "3"),
        ("'hello'.substring(1, 3)", "\"el\""),
        ("'hello'.charAt(5)", "\"\""),
        ("'  a b  '.trim()", "\"a b\""),
        ("'ABC'.lowerAscii() + 'def'.upperAscii()", "\"abcDEF\""),
        ("'a,b,c'.split(',')", "[\"a\", \"b\", \"c\"]"),
        ("'a,b,c'.split(',', 2)", "[\"a\", \"b,c\"]"),
        ("['a', 'b'].join('-') + ['c'].join()", "\"a-bc\""),
        ("'aaaa'.replace('a', 'b', 2)", "\"bbaa\""),
        ("'abc'.matches('^a.c$') && matches('abc', 'b')", "true"),
        ("'abc'.startsWith('ab') && 'abc'.endsWith('bc') && 'abc'.contains('b')", "true"),
        // Conversions.
        ("string(1e6) + ' ' + string(123456.0) + ' ' + string(0.00001)", "\"1e+06 123456 1e-05\""),
        ("int('-42') + int(1.9) + int(2u)", "-39"),
        ("uint('7')", "7u"),
        ("double('1e3')", "1000"),
        ("bool('TRUE') && bool('t')", "true"),
        ("string(b'abc')", "\"abc\""),
        ("type(1) == int && type('a') == string && type([]) == list", "true"),
        // Lists, maps, `in`.
        ("[1, 2] + [3]", "[1, 2, 3]"),
        ("[1, 2] == [1, 2]", "true"),
        ("{'a': 1} == {'a': 1}", "true"),
        ("2 in [1, 2]", "true"),
        ("'a' in {'a': 1}", "true"),
        ("{'a': 1, 'a': 2}['a']", "2"),
        ("dyn([1, 2])[1.0]", "2"),
        ("{1: 'a'}[dyn(1u)]", "\"a\""),
        ("[1, 2, 3][1]", "2"),
        // Macros.
        ("[1, 2, 3].all(x, x > 0)", "true"),
        ("[1, 2, 3].exists(x, x > 2)", "true"),
        ("[1, 2, 3].exists_one(x, x > 1)", "false"),
        ("[1, 2, 3].map(x, x * 2)", "[2, 4, 6]"),
        ("[1, 2, 3].map(x, x > 1, x * 10)", "[20, 30]"),
        ("[1, 2, 3].filter(x, x % 2 == 1)", "[1, 3]"),
        ("{'a': 1, 'b': 2}.filter(k, k == 'b')", "[\"b\"]"),
        ("[1].map(x, [2].map(x, x))", "[[2]]"),
        ("[[1, 2], [3]].map(x, x.size())", "[2, 1]"),
        ("has({'a': 1}.a) && !has({'a': 1}.b)", "true"),
        ("cel.bind(x, 2, cel.bind(y, 3, x * y))", "6"),
        // The init of a bind is evaluated only when used.
        ("cel.bind(x, 1 / 0, true)", "true"),
        // Error absorption by && and || (cel-spec: commutative).
        ("false && (1 / 0 == 1)", "false"),
        ("(1 / 0 == 1) && false", "false"),
        ("true || (1 / 0 == 1)", "true"),
        ("(1 / 0 == 1) || true", "true"),
        ("[0, -1].all(x, 1 / x > 0)", "false"),
        ("[0, 1].exists(x, 1 / x > 0)", "true"),
        // Kubernetes libraries.
        ("quantity('1Gi') == quantity('1024Mi')", "true"),
        ("quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger()", "20"),
        ("quantity('50.703k').asApproximateFloat()", "50703"),
        ("quantity('1.5').isInteger()", "false"),
        ("sign(quantity('-1m'))", "-1"),
        ("quantity('200M').compareTo(quantity('0.2G'))", "0"),
        ("isQuantity('10Mo')", "false"),
        ("semver('1.2.3').compareTo(semver('1.2.3-alpha'))", "1"),
        ("semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))", "true"),
        ("semver('1.0.0-2').isLessThan(semver('1.0.0-10'))", "true"),
        ("semver('1.0.0+build') == semver('1.0.0')", "true"),
        ("semver('v01.2', true) == semver('1.2.0')", "true"),
        ("isSemver('1.0') || isSemver('v1.0.0')", "false"),
    ];
    for (src, want) in cases {
        match run(&Env::new(), &Activation::new(), src) {
            Ok(v) => assert_eq!(v.to_string(), want, "{src}"),
            Err(e) => panic!("{src}: {e}"),
        }
    }
}

/// Expressions that compile but fail at run time, with cel-go's message.
#[test]
fn evaluation_errors() {
    let cases = [
        ("9223372036854775807 + 1", "integer overflow"),
        ("-9223372036854775808 / -1", "integer overflow"),
        ("-9223372036854775808 % -1", "integer overflow"),
        ("-(-9223372036854775808)", "integer overflow"),
        ("1u - 2u", "unsigned integer overflow"),
        ("1 / 0", "division by zero"),
        ("1 % 0", "modulus by zero"),
        ("5u % 0u", "modulus by zero"),
        ("(1 / 0 == 1) && true", "division by zero"),
        ("[0, 1].all(x, 1 / x > 0)", "division by zero"),
        ("[0, 1].exists_one(x, 1 / x > 0)", "division by zero"),
        ("[1, 2, 3][5]", "index out of bounds: 5"),
        ("dyn([1])[1.5]", "unsupported index value 1.5 in list"),
        ("dyn([1])['a']", "unsupported index type 'string' in list"),
        ("{'a': 1}['b']", "no such key: b"),
        ("{'a': {'x': 1}}.a.y", "no such key: y"),
        ("int('x')", "type conversion error from 'string' to 'int'"),
        ("int(1e20)", "integer overflow"),
        ("uint(-1)", "unsigned integer overflow"),
        ("bool('yes')", "type conversion error from 'string' to 'bool'"),
        ("'hello'.charAt(10)", "index out of range: 10"),
        ("'abc'.substring(2, 1)", "invalid substring range. start: 2, end: 1"),
        ("'abc'.substring(4)", "index out of range: 4"),
        ("dyn(1) + 'a'", "no such overload"),
        ("size(dyn(1))", "no such overload: size"),
        ("dyn(5).all(x, x > 0)", "got 'types.Int', expected iterable type"),
        ("0.0 / 0.0 < 1.0", "NaN values cannot be ordered"),
        ("'abc'.matches('[')", "error parsing regexp: found unclosed character class"),
        (
            "quantity('abc')",
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        ),
        ("quantity('10Mm')", "unable to parse quantity's suffix"),
        ("quantity('9999999999999999999999999999999999999G').asInteger()", "cannot convert value to integer"),
        ("semver('1.2')", "No Major.Minor.Patch elements found"),
        ("semver('01.2.3')", "Major number must not contain leading zeroes \"01\""),
        ("semver('1.2.3-01')", "Numeric PreRelease version must not contain leading zeroes \"01\""),
    ];
    for (src, want) in cases {
        assert_eq!(run(&Env::new(), &Activation::new(), src), Err(want.to_owned()), "{src}");
    }
}

/// Expressions that do not compile, with cel-go's `Issues.String()` text, byte for byte.
#[test]
fn compile_errors() {
    let cases = [
        ("noSuchVar", "ERROR: <input>:1:1: undeclared reference to 'noSuchVar' (in container '')\n | noSuchVar\n | ^"),
        ("foo(1)", "ERROR: <input>:1:4: undeclared reference to 'foo' (in container '')\n | foo(1)\n | ...^"),
        (
            "1 == 1.0",
            "ERROR: <input>:1:3: found no matching overload for '_==_' applied to '(int, double)'\n | 1 == 1.0\n | ..^",
        ),
        (
            "'a'.startsWith(1)",
            "ERROR: <input>:1:15: found no matching overload for 'startsWith' applied to 'string.(int)'\n | 'a'.startsWith(1)\n | ..............^",
        ),
        ("!1", "ERROR: <input>:1:1: found no matching overload for '!_' applied to '(int)'\n | !1\n | ^"),
        (
            "null == 1",
            "ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(null, int)'\n | null == 1\n | .....^",
        ),
        ("[1, 'a']", "ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a']\n | ....^"),
        (
            "[1, 2].all(x, x)",
            "ERROR: <input>:1:15: expected type 'bool' but found 'int'\n | [1, 2].all(x, x)\n | ..............^",
        ),
        (
            "[1].filter(x, x)",
            "ERROR: <input>:1:11: found no matching overload for '_?_:_' applied to '(int, list(int), list(int))'\n | [1].filter(x, x)\n | ..........^",
        ),
        (
            "1.all(x, true)",
            "ERROR: <input>:1:1: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)\n | 1.all(x, true)\n | ^",
        ),
        (
            "sign(1) + 'é' + 1",
            "ERROR: <input>:1:5: found no matching overload for 'sign' applied to '(int)'\n | sign(1) + 'é' + 1\n | ....^\nERROR: <input>:1:15: found no matching overload for '_+_' applied to '(string, int)'\n | sign(1) + 'é' + 1\n | ...........．..^",
        ),
        (
            "1 +\n 'a'",
            "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 +\n | ..^",
        ),
        ("x\n+ 1", "ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x\n | ^"),
        ("as", "ERROR: <input>:1:1: reserved identifier: as\n | as\n | ^"),
        ("has(1)", "ERROR: <input>:1:5: invalid argument to has() macro\n | has(1)\n | ....^"),
        ("[1].all(1, true)", "ERROR: <input>:1:9: argument must be a simple name\n | [1].all(1, true)\n | ........^"),
        (
            "cel.bind(1, 2, 3)",
            "ERROR: <input>:1:10: cel.bind() variable names must be simple identifiers\n | cel.bind(1, 2, 3)\n | .........^",
        ),
        ("9223372036854775808", "ERROR: <input>:1:1: invalid int literal\n | 9223372036854775808\n | ^"),
        ("18446744073709551616u", "ERROR: <input>:1:1: invalid uint literal\n | 18446744073709551616u\n | ^"),
        ("'\\U00110000'", "ERROR: <input>:1:1: invalid unicode code point\n | '\\U00110000'\n | ^"),
        ("b'\\u00e9'", "ERROR: <input>:1:1: unable to unescape string\n | b'\\u00e9'\n | ^"),
        // Syntax errors, worded as cel-go's ANTLR parser words them.
        (
            "1 + ",
            "ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 + \n | ....^",
        ),
        ("(1", "ERROR: <input>:1:3: Syntax error: missing ')' at '<EOF>'\n | (1\n | ..^"),
        (
            "1 +* 2",
            "ERROR: <input>:1:4: Syntax error: extraneous input '*' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 +* 2\n | ...^",
        ),
        ("1 2 3", "ERROR: <input>:1:3: Syntax error: mismatched input '2' expecting <EOF>\n | 1 2 3\n | ..^"),
        ("[1 2]", "ERROR: <input>:1:4: Syntax error: extraneous input '2' expecting {']', ','}\n | [1 2]\n | ...^"),
        ("{1}", "ERROR: <input>:1:3: Syntax error: mismatched input '}' expecting ':'\n | {1}\n | ..^"),
        (
            "f(",
            "ERROR: <input>:1:3: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | f(\n | ..^",
        ),
        ("a.true", "ERROR: <input>:1:3: Syntax error: mismatched input 'true' expecting IDENTIFIER\n | a.true\n | ..^"),
        ("a.(", "ERROR: <input>:1:3: Syntax error: no viable alternative at input '.('\n | a.(\n | ..^"),
        (
            "@",
            "ERROR: <input>:1:1: Syntax error: token recognition error at: '@'\n | @\n | ^\nERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | @\n | .^",
        ),
        (
            "'\\q'",
            "ERROR: <input>:1:1: Syntax error: token recognition error at: ''\\q'\n | '\\q'\n | ^\nERROR: <input>:1:4: Syntax error: token recognition error at: '''\n | '\\q'\n | ...^\nERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | '\\q'\n | ....^",
        ),
        (
            "1 = 2",
            "ERROR: <input>:1:3: Syntax error: token recognition error at: '= '\n | 1 = 2\n | ..^\nERROR: <input>:1:5: Syntax error: extraneous input '2' expecting <EOF>\n | 1 = 2\n | ....^",
        ),
    ];
    for (src, want) in cases {
        let err = compile(src, &Env::new()).map(|_| ()).unwrap_err();
        assert_eq!(err.to_string(), want, "{src}");
    }
}

/// Stack for tests that nest to the limits: release builds need about 0.5 MiB there (see
/// `parser.rs`), unoptimized test builds about 2 MiB, the default test thread's size.
const DEEP_STACK: usize = 8 << 20;

fn on_deep_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(DEEP_STACK).spawn(f).unwrap().join().expect("no stack overflow")
}

#[test]
fn recursion_limits_match_cel_go() {
    on_deep_stack(recursion_limits);
}

fn recursion_limits() {
    let nested = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
    assert!(compile(&nested(249), &Env::new()).is_ok());
    let err = compile(&nested(250), &Env::new()).map(|_| ()).unwrap_err();
    assert_eq!(err.to_string(), "ERROR: <input>:-1:0: expression recursion limit exceeded: 250");
    let chain = |n: usize| vec!["1"; n].join(" + ");
    assert!(compile(&chain(251), &Env::new()).is_ok());
    let err = compile(&chain(252), &Env::new()).map(|_| ()).unwrap_err();
    assert_eq!(err.to_string(), "ERROR: <input>:-1:0: max recursion depth exceeded");
    // `&&` chains are balanced trees, so long ones are fine.
    let ands = vec!["true"; 5000].join(" && ");
    assert_eq!(run(&Env::new(), &Activation::new(), &ands), Ok(Value::Bool(true)));
}

#[test]
fn hostile_nesting_is_a_syntax_error_not_a_stack_overflow() {
    let inputs = [
        "(".repeat(10_000),
        "[".repeat(10_000),
        "{1:".repeat(10_000),
        "!".repeat(10_000) + "true",
        "-".repeat(10_000) + "1",
        "a".to_owned() + &".b".repeat(10_000),
        vec!["1"; 20_000].join("+"),
        "x".repeat(100_001),
    ];
    for src in &inputs {
        let src = src.clone();
        let r = std::thread::Builder::new()
            .stack_size(DEEP_STACK)
            .spawn(move || compile(&src, &Env::new()).map(|p| p.eval(&Activation::new()).is_ok()))
            .unwrap()
            .join()
            .expect("no stack overflow");
        let _ = r;
    }
    let err = on_deep_stack(|| compile(&"(".repeat(10_000), &Env::new()).map(|_| ()).unwrap_err().to_string());
    assert_eq!(err, "ERROR: <input>:-1:0: expression recursion limit exceeded: 250");
}

#[test]
fn deepest_accepted_expressions_evaluate() {
    let results = on_deep_stack(|| {
        let srcs = [
            format!("{}1{}", "(".repeat(249), ")".repeat(249)),
            format!("{}'a'{}", "string(".repeat(248), ")".repeat(248)),
            format!("{}{}", "[".repeat(250), "]".repeat(250)),
            format!("[{}].map(x, x)", vec!["1"; 250].join(" + ")),
        ];
        srcs.iter().map(|s| compile(s, &Env::new()).map(|p| p.eval(&Activation::new()).is_ok())).collect::<Vec<_>>()
    });
    assert_eq!(results, vec![Ok(true); 4]);
}

#[test]
fn cost_limit_cancels_runaway_evaluation() {
    let mut env = Env::new();
    env.declare("big", Type::list(Type::Int));
    let mut vars = Activation::new();
    vars.insert("big", Value::list((0..1000).map(Value::Int).collect()));
    let src = "big.all(x, big.all(y, x + y >= 0))";
    assert_eq!(run(&env, &vars, src), Err("operation cancelled: actual cost limit exceeded".to_owned()));
    // The cost error is not absorbed by `||` the way ordinary errors are.
    let src = "big.map(x, big.map(y, x * y)).size() > 0 || true";
    assert_eq!(run(&env, &vars, src), Err("operation cancelled: actual cost limit exceeded".to_owned()));
    assert_eq!(run(&env, &vars, "big.all(x, x >= 0)"), Ok(Value::Bool(true)));
}

/// A small deterministic generator (xorshift), so the fuzz test needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn random_input_never_panics() {
    let tokens = [
        "1",
        "0x1f",
        "2u",
        "1.5",
        "-",
        "!",
        "+",
        "*",
        "/",
        "%",
        "==",
        "!=",
        "<",
        ">=",
        "&&",
        "||",
        "?",
        ":",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ",",
        ".",
        "in",
        "'s'",
        "\"x\"",
        "b'y'",
        "r'\\'",
        "'''",
        "true",
        "null",
        "x",
        "device",
        "size",
        "has",
        "all",
        "map",
        "filter",
        "exists_one",
        "cel",
        "bind",
        "quantity('1Gi')",
        "semver('1.0.0')",
        "isGreaterThan",
        "matches",
        "'['",
        "9223372036854775807",
        "\\",
        "é",
        "\n",
        " ",
    ];
    let mut env = dra_env();
    env.declare("x", Type::Dyn);
    let mut vars = a100();
    vars.insert("x", Value::list(vec![Value::Int(1), Value::string("a")]));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..3000 {
        let src: String = if round % 3 == 0 {
            let n = rng.next() % 24;
            (0..n).map(|_| char::from_u32((rng.next() % 0x80) as u32).unwrap_or('?')).collect()
        } else {
            let n = rng.next() % 16;
            (0..n).map(|_| rng.pick(&tokens)).collect::<Vec<_>>().join(if round % 2 == 0 { " " } else { "" })
        };
        if let Ok(p) = compile(&src, &env) {
            let _ = p.eval(&vars);
        } else if let Err(e) = compile(&src, &env) {
            let _ = e.to_string();
        }
    }
}

/// Mutating admission policies' environment: the open `Object.*` types and `JSONPatch`.
fn mutation_env() -> Env {
    let mut env = Env::new();
    env.declare("object", Type::Dyn).declare_open_struct_root("Object").declare_struct(ObjectType::new(
        "JSONPatch",
        vec![("op", Type::String), ("path", Type::String), ("from", Type::String), ("value", Type::Dyn)],
    ));
    env
}

#[test]
fn message_construction_builds_declared_objects() {
    let env = mutation_env();
    let vars = Activation::new();
    for (src, want) in [
        (r#"Object{spec: Object.spec{replicas: 2}}"#, "Object{spec: Object.spec{replicas: 2}}"),
        (r#"JSONPatch{op: "add", path: "/x", value: 1,}"#, r#"JSONPatch{op: "add", path: "/x", value: 1}"#),
        (r#"[JSONPatch{op: "remove", path: "/y"}]"#, r#"[JSONPatch{op: "remove", path: "/y"}]"#),
        ("Object{}", "Object{}"),
    ] {
        assert_eq!(run(&env, &vars, src).map(|v| v.to_string()), Ok(want.to_string()), "{src}");
    }
    for (src, want) in [
        (
            "Thing{a: 1}",
            "ERROR: <input>:1:6: undeclared reference to 'Thing' (in container '')\n | Thing{a: 1}\n | .....^",
        ),
        (
            "JSONPatch{nope: 1}",
            "ERROR: <input>:1:17: undefined field 'nope'\n | JSONPatch{nope: 1}\n | ................^",
        ),
    ] {
        assert_eq!(compile(src, &env).map(|_| ()).map_err(|e| e.to_string()), Err(want.to_string()), "{src}");
    }
    // A map literal after an identifier that is not a type name still parses as before.
    assert!(compile("object == {}", &env).is_ok());
}
