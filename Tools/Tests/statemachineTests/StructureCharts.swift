/// The charts of ``DefinitionError/invalidStructure(_:)``: one per structural rule a document can
/// break (S11, S16, S17, S20), in every format that can break it.
let structureCharts: [Chart] = [
  // A fork's targets in one region: both targets (SCXML writes them in one attribute).
  Chart(
    name: "fork", format: .json,
    text: """
      {"states": {
        "s": {"states": {"a": {}, "b": {}}},
        "t": {"on": {"e": {"target": ["s/a", "s/b"]}}}
      }}
      """,
    message: "transition 'e': 's/a' and 's/b' are not in distinct regions of one parallel state",
    places: [at(3, 33, "/states/t/on/e/target/0"), at(3, 40, "/states/t/on/e/target/1")], thrown: .invalidStructure),
  Chart(
    name: "fork", format: .tb,
    text: """
      {"states": [{"name": "s", "type": "sub", "states": [{"name": "a", "type": "state"}, {"name": "b", "type": "state"}]}, {"name": "t", "type": "state"}],
       "transitions": [{"type": "compound", "name": "f", "pseudo_state": {"type": "fork", "name": "f"},
        "vertices": {"incoming": [{"source": "t", "name": "e"}], "outgoing": [{"target": "s/a"}, {"target": "s/b"}]}}]}
      """,
    message: "transition 'e': 's/a' and 's/b' are not in distinct regions of one parallel state",
    places: [at(3, 73, "/transitions/0/vertices/outgoing/0"), at(3, 92, "/transitions/0/vertices/outgoing/1")],
    thrown: .invalidStructure),
  Chart(
    name: "fork", format: .scxml,
    text: scxml("<state id=\"s\"><state id=\"a\"/><state id=\"b\"/></state>\n<state id=\"t\"><transition event=\"e\" target=\"a b\"/></state>"),
    message: "transition 'e': 's/a' and 's/b' are not in distinct regions of one parallel state", places: [at(3, 49)],
    thrown: .invalidStructure),
  // An initial state outside its state.
  Chart(
    name: "initial-outside", format: .json, text: #"{"states": {"a": {"initial": "b", "states": {"c": {}}}, "b": {}}}"#,
    message: "the initial state 'b' of 'a' is not inside it", places: [at(1, 30, "/states/a/initial")],
    thrown: .invalidStructure),
  Chart(
    name: "initial-outside", format: .scxml, text: scxml("<state id=\"a\" initial=\"b\"><state id=\"c\"/></state>\n<state id=\"b\"/>"),
    message: "the initial state 'b' of 'a' is not inside it", places: [at(2, 26)], thrown: .invalidStructure),
  // Several initial states in one region: both.
  Chart(
    name: "initial-fork", format: .json, text: #"{"states": {"a": {"initial": ["c", "d"], "states": {"c": {}, "d": {}}}}}"#,
    message: "the initial states of 'a': 'a/c' and 'a/d' are not in distinct regions of one parallel state",
    places: [at(1, 31, "/states/a/initial/0"), at(1, 36, "/states/a/initial/1")], thrown: .invalidStructure),
  Chart(
    name: "initial-fork", format: .scxml, text: scxml("<state id=\"a\" initial=\"c d\"><state id=\"c\"/><state id=\"d\"/></state>"),
    message: "the initial states of 'a': 'a/c' and 'a/d' are not in distinct regions of one parallel state",
    places: [at(2, 28)], thrown: .invalidStructure),
  Chart(
    name: "root-initial-fork", format: .json, text: #"{"initial": ["a", "b"], "states": {"a": {}, "b": {}}}"#,
    message: "the initial states of the machine: 'a' and 'b' are not in distinct regions of one parallel state",
    places: [at(1, 14, "/initial/0"), at(1, 19, "/initial/1")], thrown: .invalidStructure),
  Chart(
    name: "root-initial-fork", format: .scxml, text: scxml("<state id=\"a\"/><state id=\"b\"/>", rootAttributes: " initial=\"a b\""),
    message: "the initial states of the machine: 'a' and 'b' are not in distinct regions of one parallel state",
    places: [at(1, 61)], thrown: .invalidStructure),
  // A history outside a compound or parallel state, and one whose default is outside its parent.
  Chart(
    name: "history-top", format: .json, text: #"{"states": {"a": {}, "h": {"type": "history"}}}"#,
    message: "history 'h' must be the child of a compound or parallel state", places: [at(1, 27, "/states/h")],
    thrown: .invalidStructure),
  Chart(
    name: "history-top", format: .scxml, text: scxml("<state id=\"a\"/>\n<history id=\"h\"/>"),
    message: "history 'h' must be the child of a compound or parallel state", places: [at(3, 16)], thrown: .invalidStructure),
  Chart(
    name: "history-default", format: .json,
    text: #"{"states": {"p": {"states": {"a": {}, "h": {"type": "history", "target": "x"}}}, "x": {}}}"#,
    message: "the default 'x' of history 'p/h' is outside its parent", places: [at(1, 74, "/states/p/states/h/target")],
    thrown: .invalidStructure),
  Chart(
    name: "history-default", format: .scxml,
    text: scxml("<state id=\"p\"><state id=\"a\"/><history id=\"h\">\n<transition target=\"x\"/></history></state>\n<state id=\"x\"/>"),
    message: "the default 'x' of history 'p/h' is outside its parent", places: [at(3, 23)], thrown: .invalidStructure),
  // A junction path to a pseudostate.
  Chart(
    name: "junction", format: .json,
    text: #"{"states": {"a": {"on": {"go": "j"}}, "j": {"type": "junction", "paths": [{"target": "k"}]}, "k": {"type": "junction", "paths": [{"target": "a"}]}}}"#,
    message: "a path of junction 'j' leads to pseudostate 'k'", places: [at(1, 86, "/states/j/paths/0/target")],
    thrown: .invalidStructure),
  // A join with one source: the join and its transition.
  Chart(
    name: "join-one", format: .json,
    text: #"{"states": {"p": {"type": "parallel", "states": {"r1": {"states": {"x": {"on": {"go": "j"}}}}, "r2": {"states": {"y": {}}}}}, "j": {"type": "join", "target": "p"}}}"#,
    message: "join 'j' needs transitions from at least two states in distinct regions",
    places: [at(1, 132, "/states/j"), at(1, 87, "/states/p/states/r1/states/x/on/go")], thrown: .invalidStructure),
  Chart(
    name: "join-one", format: .tb,
    text: """
      {"states": [{"name": "p", "type": "parallel", "regions": [[{"name": "x", "type": "state"}], [{"name": "y", "type": "state"}]]}],
       "transitions": [{"type": "compound", "name": "j", "pseudo_state": {"type": "join", "name": "j"},
        "vertices": {"incoming": [{"source": "p@0/x", "name": "go"}], "outgoing": [{"target": "p"}]}}]}
      """,
    message: "join 'j' needs transitions from at least two states in distinct regions",
    places: [at(2, 68, "/transitions/0/pseudo_state"), at(3, 29, "/transitions/0/vertices/incoming/0")],
    thrown: .invalidStructure),
  // A join's sources in one region: both transitions.
  Chart(
    name: "join-region", format: .json,
    text: #"{"states": {"p": {"type": "parallel", "states": {"r1": {"states": {"x": {"on": {"go": "j"}}, "z": {"on": {"go": "j"}}}}, "r2": {"states": {"y": {}}}}}, "j": {"type": "join", "target": "p"}}}"#,
    message: "the sources of join 'j': 'p/r1/x' and 'p/r1/z' are not in distinct regions of one parallel state",
    places: [at(1, 87, "/states/p/states/r1/states/x/on/go"), at(1, 113, "/states/p/states/r1/states/z/on/go")],
    thrown: .invalidStructure),
  Chart(
    name: "join-region", format: .tb,
    text: """
      {"states": [{"name": "p", "type": "parallel", "regions": [[{"name": "x", "type": "state"}, {"name": "z", "type": "state"}], [{"name": "y", "type": "state"}]]}],
       "transitions": [{"type": "compound", "name": "j", "pseudo_state": {"type": "join", "name": "j"},
        "vertices": {"incoming": [{"source": "p@0/x", "name": "go"}, {"source": "p@0/z", "name": "go"}], "outgoing": [{"target": "p"}]}}]}
      """,
    message: "the sources of join 'j': 'p@0/x' and 'p@0/z' are not in distinct regions of one parallel state",
    places: [at(3, 29, "/transitions/0/vertices/incoming/0"), at(3, 64, "/transitions/0/vertices/incoming/1")],
    thrown: .invalidStructure),
  // A transition from a pseudostate.
  Chart(
    name: "leaves-pseudostate", format: .tb,
    text: """
      {"states": [{"name": "p", "type": "parallel", "regions": [[{"name": "x", "type": "state"}], [{"name": "y", "type": "state"}]]}],
       "transitions": [{"type": "compound", "name": "j", "pseudo_state": {"type": "join", "name": "j"},
        "vertices": {"incoming": [{"source": "p@0/x", "name": "go"}, {"source": "p@1/y", "name": "go"}], "outgoing": [{"target": "p"}]}},
       {"type": "simple", "kind": "external", "name": "back", "source": "j", "target": "p"}]}
      """,
    message: "transition 'back' leaves pseudostate 'j'; only states are sources", places: [at(4, 2, "/transitions/1")],
    thrown: .invalidStructure),
]

/// Why the structural rules without a chart in some format cannot be broken there.
let structureFormats = """
  TB JSON has no initial states, histories or junctions (the loader refuses its junctions); JSON \
  and SCXML pseudostates take no transitions, so only TB JSON can make one leave a pseudostate; \
  SCXML has no junctions or joins. A final state with children, a compound state without \
  children, a junction without paths, a join without a target, initial states on a state that \
  is not compound and onDone on an atomic state are format errors in every format: the loaders \
  refuse them first (invalidJSON, invalidDocument).
  """
