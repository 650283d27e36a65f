import StateMachines

/// Every case of ``DefinitionError`` and the charts that make `statemachine validate` report it
/// (Hierarchy §7). A new case fails ``ValidateLocationTests`` until it has a row here.
let chartRows: [Row] = [
  Row(
    kind: .noStates, charts: [],
    otherFormats: """
      No document: JSON and TB JSON refuse an empty 'states' (invalidJSON), SCXML a document \
      without states (invalidDocument); only a definition built in code has no states.
      """),
  Row(
    kind: .emptyName,
    charts: [
      Chart(
        name: "empty-name", format: .json, text: #"{"states": {"": {}}}"#, message: "state name is empty",
        places: [at(1, 17, "/states/")], thrown: .invalidJSON),
      Chart(
        name: "empty-name", format: .tb, text: #"{"states": [{"name": "", "type": "state"}]}"#,
        message: "state name is empty", places: [at(1, 22, "/states/0/name")], thrown: .invalidJSON),
    ],
    otherFormats: "SCXML: a state without an id gets one, and an empty event descriptor names no event."),
  Row(
    kind: .undeclaredState,
    charts: [
      Chart(
        name: "undeclared", format: .json, text: #"{"states": {"a": {"on": {"go": "nowhere"}}}}"#,
        message: "'nowhere' names undeclared state 'nowhere'", places: [at(1, 32, "/states/a/on/go")],
        thrown: .invalidJSON),
      Chart(
        name: "undeclared", format: .tb,
        text: #"{"states": [{"name": "a", "type": "state"}], "transitions": [{"type": "simple", "kind": "external", "name": "go", "source": "a", "target": "nowhere"}]}"#,
        message: "'nowhere' names undeclared state 'nowhere'", places: [at(1, 140, "/transitions/0/target")],
        thrown: .invalidJSON),
      Chart(
        name: "undeclared", format: .scxml,
        text: scxml(#"<state id="a"><transition event="go" target="nowhere"/></state>"#),
        message: "no state has id 'nowhere'", places: [at(2, 54)], thrown: .invalidDocument),
    ],
    otherFormats: ""),
  Row(
    kind: .undeclaredEvent, charts: [],
    otherFormats: """
      No document: only a before or after callback, which documents cannot declare, names an event; \
      a document's events are the ones its transitions declare.
      """),
  Row(
    kind: .internalTransitionChangesState,
    charts: [
      Chart(
        name: "internal", format: .json,
        text: #"{"states": {"a": {"on": {"go": {"target": "b", "kind": "internal"}}}, "b": {}}}"#,
        message: "transition 'go' is internal but does not lead from a state to itself",
        places: [at(1, 32, "/states/a/on/go")], thrown: .internalTransitionChangesState),
      Chart(
        name: "internal", format: .tb,
        text: #"{"states": [{"name": "a", "type": "state"}, {"name": "b", "type": "state"}], "transitions": [{"type": "simple", "kind": "internal", "name": "go", "source": "a", "target": "b"}]}"#,
        message: "an internal transition must target its source ('a', not 'b')", places: [at(1, 94, "/transitions/0")],
        thrown: .invalidJSON),
    ],
    otherFormats: "SCXML: type=\"internal\" becomes a local or an external transition, never one that must stay."),
  Row(
    kind: .invalidValue,
    charts: [
      Chart(
        name: "value", format: .json, text: #"{"states": {"a": {"after": [{"seconds": -1, "target": "a"}]}}}"#,
        message: "'seconds' must be positive", places: [at(1, 41, "/states/a/after/0/seconds")], thrown: .invalidJSON),
      Chart(
        name: "value", format: .scxml,
        text: scxml(#"<state id="a"><onentry><send event="e" delay="soon"/></onentry></state>"#),
        message: "delay 'soon' is not a duration", places: [at(2, 52)], thrown: .invalidDocument),
    ],
    otherFormats: "TB JSON: no values (timeouts, limits)."),
  Row(
    kind: .ambiguousState,
    charts: [
      Chart(
        name: "ambiguous", format: .json,
        text: #"{"states": {"p": {"type": "parallel", "states": {"r1": {"states": {"x": {}}}, "r2": {"states": {"x": {}}}}}, "t": {"on": {"go": "x"}}}}"#,
        message: "'x' names ambiguous state 'x': 'p/r1/x' or 'p/r2/x'", places: [at(1, 129, "/states/t/on/go")],
        thrown: .invalidJSON),
      Chart(
        name: "ambiguous", format: .tb,
        text: #"{"states": [{"name": "p", "type": "parallel", "regions": [[{"name": "x", "type": "state"}], [{"name": "x", "type": "state"}]]}], "transitions": [{"type": "simple", "kind": "external", "name": "go", "source": "p", "target": "x"}]}"#,
        message: "'x' names ambiguous state 'x': 'p@0/x' or 'p@1/x'", places: [at(1, 224, "/transitions/0/target")],
        thrown: .invalidJSON),
    ],
    otherFormats: "SCXML: ids are unique in a document, and targets are ids."),
  Row(
    kind: .invalidPath,
    charts: [
      Chart(
        name: "path", format: .json, text: #"{"states": {"a": {"on": {"go": "a/zz"}}}}"#,
        message: "'a/zz' names invalid path 'a/zz': 'a' has no child 'zz'", places: [at(1, 32, "/states/a/on/go")],
        thrown: .invalidJSON),
      Chart(
        name: "path", format: .tb,
        text: #"{"states": [{"name": "a", "type": "state"}], "transitions": [{"type": "simple", "kind": "external", "name": "go", "source": "a", "target": "a/zz"}]}"#,
        message: "'a/zz' names invalid path 'a/zz': 'a' has no child 'zz'", places: [at(1, 140, "/transitions/0/target")],
        thrown: .invalidJSON),
    ],
    otherFormats: "SCXML: targets are ids, not paths (an unknown id is the undeclaredState row's error)."),
  Row(
    kind: .invalidName,
    charts: [
      Chart(
        name: "name", format: .json, text: #"{"states": {"a/b": {}}}"#, message: "invalid state name 'a/b'",
        places: [at(1, 20, "/states/a~1b")], thrown: .invalidJSON),
      Chart(
        name: "name", format: .tb, text: #"{"states": [{"name": "a,b", "type": "state"}]}"#,
        message: "state name 'a,b' contains '/', '@' or ','", places: [at(1, 22, "/states/0/name")], thrown: .invalidJSON),
      Chart(
        name: "name", format: .scxml, text: scxml(#"<state id="a/b"/>"#), message: "state name 'a/b' contains '/', '@' or ','",
        places: [at(2, 16)], thrown: .invalidDocument),
    ],
    otherFormats: ""),
  Row(
    kind: .duplicateState,
    charts: [
      Chart(
        name: "duplicate", format: .tb,
        text: """
          {"states": [
            {"name": "a", "type": "state"},
            {"name": "a", "type": "parallel", "regions": [[{"name": "x", "type": "state"}]]}
          ]}
          """,
        message: "state 'a' is declared twice with different kinds", places: [at(2, 3, "/states/0"), at(3, 3, "/states/1")],
        thrown: .duplicateState),
      // The reader refuses a repeated key, and says where the first one is.
      Chart(
        name: "duplicate", format: .json, text: "{\"states\": {\"a\": {},\n \"a\": {}}}",
        message: "duplicate key 'a' (the first is at 1:18)", places: [at(2, 2, "/states/a")], thrown: .invalidJSON),
      Chart(
        name: "duplicate", format: .scxml, text: scxml("<state id=\"a\"/>\n<state id=\"a\"/>"),
        message: "id 'a' is declared twice (the first is at 2:14)", places: [at(3, 14)], thrown: .invalidDocument),
    ],
    otherFormats: ""),
  Row(kind: .invalidStructure, charts: structureCharts, otherFormats: structureFormats),
  Row(
    kind: .invalidDocument,
    charts: [
      Chart(
        name: "unsupported", format: .scxml, text: scxml(#"<state id="a"><invoke srcexpr="x"/></state>"#),
        message: "<invoke srcexpr> is not supported", places: [at(2, 34)], thrown: .invalidDocument),
      Chart(
        name: "malformed", format: .scxml, text: scxml("<state id=\"a\">\n<state id=\"b\"/>"),
        message: "malformed XML", places: [at(4, 9)], thrown: .invalidDocument),
    ],
    otherFormats: "JSON and TB JSON: their format errors are the invalidJSON row's."),
  Row(
    kind: .invalidJSON,
    charts: [
      Chart(
        name: "syntax", format: .json, text: "{\"states\": {\"a\": {}}\n", message: "expected ',' or '}' in an object",
        places: [at(2, 1, "")], thrown: .invalidJSON),
      Chart(
        name: "unknown-key", format: .json, text: #"{"states": {"a": {"colour": "red"}}}"#,
        message: "key 'colour' is not allowed in a state of type 'atomic'", places: [at(1, 29, "/states/a/colour")],
        thrown: .invalidJSON),
      Chart(
        name: "unknown-type", format: .tb, text: #"{"states": [{"name": "a", "type": "box"}]}"#,
        message: "unknown state type 'box'", places: [at(1, 35, "/states/0/type")], thrown: .invalidJSON),
    ],
    otherFormats: "SCXML: its format errors are the invalidDocument row's."),
  Row(
    kind: .unboundName, charts: [],
    otherFormats: """
      Not through validate: the tool binds every guard and action name a document uses (guards pass, \
      actions do nothing). The library reports it at the name's line, column and pointer \
      (JSONDefinitionTests); TB JSON names no guards or actions; the SCXML import reports an \
      unbound name as invalidDocument.
      """),
  Row(
    kind: .located, charts: [],
    otherFormats: """
      The wrapper of the errors the definition's checks find: every chart above whose thrown case \
      is not the format's own (invalidJSON, invalidDocument) is thrown as located, at its places.
      """),
]
