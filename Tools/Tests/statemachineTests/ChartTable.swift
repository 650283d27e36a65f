import StateMachines

/// A chart file that makes `statemachine validate` report one error, and where it must say the
/// culprit is.
struct Chart: CustomStringConvertible, Sendable {
  enum Format: String, Sendable {
    case json, tb, scxml

    var fileExtension: String {
      switch self {
      case .json: "json"
      case .tb: "tb.json"
      case .scxml: "scxml"
      }
    }
  }

  /// Where the error or one of its notes points: JSON gives a pointer, SCXML does not. An SCXML
  /// element's column is where the XML parser places it: the end of its start tag.
  struct Place: Sendable {
    let line: Int
    let column: Int
    let pointer: String?
  }

  let name: String
  let format: Format
  let text: String
  /// What the error line says (a part of it).
  let message: String
  /// The error's place, then each further culprit's (a `note:` line each).
  let places: [Place]
  /// The case the library throws: the row's case, or the format's own case when the loader
  /// reports it itself (a JSON loader's `invalidJSON`, the SCXML import's `invalidDocument`).
  /// For ``DefinitionError/located(_:at:)``, the case it wraps.
  let thrown: DefinitionError.Kind

  var description: String { "\(name).\(format.fileExtension)" }
}

/// One case of ``DefinitionError``: the charts that produce it, and why the formats without a
/// chart cannot.
struct Row: Sendable {
  let kind: DefinitionError.Kind
  let charts: [Chart]
  /// The formats that have no chart, and why (every format, for a case no document produces).
  let otherFormats: String
}

/// `line:column` with a JSON pointer.
func at(_ line: Int, _ column: Int, _ pointer: String) -> Chart.Place { .init(line: line, column: column, pointer: pointer) }
/// `line:column` in an SCXML document.
func at(_ line: Int, _ column: Int) -> Chart.Place { .init(line: line, column: column, pointer: nil) }

/// An SCXML document around `body`, which starts on line 2.
func scxml(_ body: String, rootAttributes: String = "") -> String {
  "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"\(rootAttributes)>\n\(body)\n</scxml>\n"
}
