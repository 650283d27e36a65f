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
