#if canImport(FoundationXML)
  import FoundationXML
#endif
import Foundation
import StateMachines

/// An element of a parsed XML document, with where it starts (1-based line and column).
final class XMLTree {
  let name: String
  let namespace: String?
  let attributes: [String: String]
  var children: [XMLTree] = []
  var text = ""
  let line: Int
  let column: Int

  init(name: String, namespace: String?, attributes: [String: String], line: Int, column: Int) {
    self.name = name
    self.namespace = namespace
    self.attributes = attributes
    self.line = line
    self.column = column
  }

  /// Whether this is a state element of SCXML (`state`, `parallel`, `final`, `history`).
  var isState: Bool { ["state", "parallel", "final", "history"].contains(name) }

  /// Whether it has child state elements (a compound or parallel state).
  var hasChildStates: Bool { children.contains { $0.isState } }

  /// Parses `data` namespace-aware; a malformed document is an error at its position.
  static func parse(_ data: Data) throws(DefinitionError) -> XMLTree {
    // FoundationXML on Linux traps on some invalid UTF-8 in names (found by the fuzzer): the
    // import reads UTF-8 documents only, and checks them first.
    if let (line, column) = firstInvalidUTF8(data) {
      throw .invalidDocument("the document is not valid UTF-8", line: line, column: column)
    }
    // FoundationXML on Linux also crashes on a processing instruction without data (found by
    // the fuzzer); SCXML needs none, so only the XML declaration is accepted.
    if let (line, column) = firstProcessingInstruction(Array(data)) {
      throw .invalidDocument("processing instructions are not supported", line: line, column: column)
    }
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.shouldReportNamespacePrefixes = false
    parser.shouldResolveExternalEntities = false
    let builder = TreeBuilder(parser)
    parser.delegate = builder
    let parsed = parser.parse()
    guard parsed, builder.error == nil, let root = builder.root else {
      if let error = builder.error { throw error }
      let description = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not an XML document"
      throw .invalidDocument(
        "malformed XML: \(description)", line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
    }
    return root
  }

  /// The line and column of the first processing instruction (`<?`) other than the XML
  /// declaration at the start, or `nil`.
  ///
  /// It looks everywhere, comments and CDATA sections included: after a syntax error libxml2
  /// goes on reporting what it can, and a scanner that tracked comments or skipped a malformed
  /// declaration to its `?>` could fall out of step with it (the fuzzer found
  /// `<?xml li&a0">` followed by `<tat<?xc?>`, whose instruction the skip hid).
  static func firstProcessingInstruction(_ bytes: [UInt8]) -> (line: Int, column: Int)? {
    let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    var index = 0
    // A byte order mark and whitespace, then the declaration's `<?xml ` (only its opening: what
    // follows is scanned like the rest).
    while index < bytes.count && (whitespace.contains(bytes[index]) || [0xEF, 0xBB, 0xBF].contains(bytes[index])) {
      index += 1
    }
    if bytes[index...].starts(with: "<?xml".utf8) && index + 5 < bytes.count && whitespace.contains(bytes[index + 5]) {
      index += 5
    }
    while index + 1 < bytes.count {
      if bytes[index] == UInt8(ascii: "<") && bytes[index + 1] == UInt8(ascii: "?") {
        let prefix = bytes[..<index]
        let line = prefix.filter { $0 == 0x0A }.count + 1
        let lineStart = prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = bytes[lineStart..<index].filter { $0 & 0xC0 != 0x80 }.count + 1
        return (line, column)
      }
      index += 1
    }
    return nil
  }

  /// The line and column of the first byte that is not valid UTF-8, or `nil`.
  static func firstInvalidUTF8(_ data: Data) -> (line: Int, column: Int)? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = data.makeIterator()
    var line = 1
    var column = 1
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        if encoded.count == 1 && encoded.first == 0x0A {
          line += 1
          column = 1
        } else {
          column += 1
        }
      case .error:
        return (line, column)
      case .emptyInput:
        return nil
      }
    }
  }
}

/// Builds the tree from the parser's callbacks.
private final class TreeBuilder: NSObject, XMLParserDelegate {
  let parser: XMLParser
  var root: XMLTree?
  var stack: [XMLTree] = []
  var error: DefinitionError?

  init(_ parser: XMLParser) {
    self.parser = parser
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String] = [:]
  ) {
    let element = XMLTree(
      name: elementName, namespace: namespaceURI, attributes: attributeDict, line: max(parser.lineNumber, 1),
      column: max(parser.columnNumber, 1))
    if let parent = stack.last {
      parent.children.append(element)
    } else if root == nil {
      root = element
    }
    stack.append(element)
  }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
    _ = stack.popLast()
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    stack.last?.text += string
  }

  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    if error == nil {
      error = .invalidDocument(
        "malformed XML: \((parseError as NSError).localizedDescription)", line: max(parser.lineNumber, 1),
        column: max(parser.columnNumber, 1))
    }
  }
}
