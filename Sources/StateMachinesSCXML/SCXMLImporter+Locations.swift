import StateMachines

extension SCXMLImporter {
  /// `error`, which the definition's checks found, at the elements of its culprits
  /// (``DefinitionError/located(_:at:)``); unchanged if none of them is in the document (a
  /// culprit that code added).
  func locate(_ error: DefinitionError, culprits: [DefinitionCulprit]) -> DefinitionError {
    var locations: [DefinitionLocation] = []
    for culprit in culprits {
      guard let element = element(of: culprit) else { continue }
      let location = DefinitionLocation(line: element.line, column: element.column)
      if !locations.contains(location) { locations.append(location) }
    }
    return locations.isEmpty ? error : .located(error, at: locations)
  }

  /// The element that declares `culprit`: a state, the `<transition>` of a transition (which
  /// holds its targets), of an `<initial>` or of a history's default; the state that names its
  /// initial states in an attribute; the root for the document's initial states.
  private func element(of culprit: DefinitionCulprit) -> XMLTree? {
    func state(_ path: String) -> XMLTree? { states.first { $0.path == path }?.element }
    func transitionChild(of element: XMLTree?) -> XMLTree? {
      element?.children.first { $0.name == "transition" } ?? element
    }
    switch culprit {
    case .node(_, let path):
      return state(path)
    case .initial(-1, _, _):
      return root
    case .initial(_, let path, _):
      let element = state(path)
      if let initial = element?.children.first(where: { $0.name == "initial" }) { return transitionChild(of: initial) }
      return element
    case .transition(let index, _):
      return transitionElements.indices.contains(index) ? transitionElements[index] : nil
    case .historyDefault(_, let path, _):
      return transitionChild(of: state(path))
    case .declaration, .junctionPath:
      // SCXML declares each id once (checked by the import) and has no junctions.
      return nil
    }
  }
}
