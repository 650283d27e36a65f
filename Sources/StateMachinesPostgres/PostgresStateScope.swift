// Scopes as SQL (P14): the condition that selects a store's rows in a state, as a fragment with
// its own bound values, so that the application combines it with its own WHERE, joins and
// ordering. `ids(in:)` and `count(in:)` use the same condition.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

/// The condition "the row is in this state" of a ``PostgresStateMachineStore``'s table, to put
/// in the application's own queries (P14): a compound state matches its descendants, a parallel
/// state its regions' states.
///
/// Interpolate it into a `PostgresQuery`, where its values are bound after the query's own:
///
/// ```swift
/// let paid = orders.scope(in: "paid", alias: "o")
/// let rows = try await client.query(
///   "SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE \(paid) AND c.country = \(country)",
///   logger: logger)
/// ```
///
/// A scope is a read of committed rows: act on what it finds with `fire`, which re-checks.
public struct PostgresStateScope: Sendable, Hashable {
  /// A piece of the condition: SQL text, or a value to bind.
  enum Part: Sendable, Hashable {
    case sql(String)
    case value(String)
  }

  let parts: [Part]

  /// The condition as SQL whose placeholders follow the values already in `bindings`, to which
  /// the scope's values are appended.
  public func sql(appendingTo bindings: inout PostgresBindings) -> String {
    sql { value in
      bindings.append(value)
      return "$\(bindings.count)"
    }
  }

  /// The condition in a statement being built.
  func sql(_ statement: inout PostgresStatement) -> String {
    sql { statement.bind($0) }
  }

  /// The condition's text, with each value's placeholder as `bind` gives it.
  private func sql(binding bind: (String) -> String) -> String {
    var sql = ""
    for part in parts {
      switch part {
      case .sql(let text): sql += text
      case .value(let value): sql += bind(value)
      }
    }
    return sql
  }

  /// The scope of `state` in `table`, whose columns are qualified by `alias` when given; one
  /// that matches nothing when `state` is not in `definition`.
  init<Model>(state: String, definition: StateMachineDefinition<Model>, table: PostgresMachineTable, alias: String?) {
    let prefix = alias.map { $0.quotedIdentifier + "." } ?? ""
    let column = prefix + "state"
    guard let name = definition.storedName(of: state) else {
      parts = [.sql("FALSE")]
      return
    }
    var parts: [Part] = table.isShared ? [.sql("\(prefix)machine = "), .value(table.machine), .sql(" AND ")] : []
    if definition.storesOneName {
      parts += [.sql("\(column) = "), .value(name)]
    } else {
      // A configuration is leaf paths joined by ","; a state is in it when its path is one of them
      // or a prefix of one, up to a "/". The pattern-ordered range (`~>=~`, `~<~`: byte order,
      // whatever the collation) uses the `text_pattern_ops` index for the first leaf.
      parts += [
        .sql("(\(column) = "), .value(name), .sql(" OR (\(column) ~>=~ "), .value(name + "/"),
        .sql(" AND \(column) ~<~ "), .value(name + "0"), .sql(") OR strpos(',' || \(column) || ',', "),
        .value("," + name + ","), .sql(") > 0 OR strpos(',' || \(column), "), .value("," + name + "/"), .sql(") > 0)"),
      ]
    }
    self.parts = parts
  }
}

extension PostgresQuery.StringInterpolation {
  /// Interpolates a scope's condition, binding its values after those already in the query.
  public mutating func appendInterpolation(_ scope: PostgresStateScope) {
    for part in scope.parts {
      switch part {
      case .sql(let text): appendInterpolation(unescaped: text)
      case .value(let value): appendInterpolation(value)
      }
    }
  }
}

extension PostgresStateMachineStore {
  /// The condition that selects the rows in `state` (P14; a compound state matches its
  /// descendants), for the application's own queries; `alias` qualifies the table's columns
  /// when the query names the table so. A state the definition does not have matches nothing.
  public func scope(in state: String, alias: String? = nil) -> PostgresStateScope {
    PostgresStateScope(state: state, definition: engine.definition, table: engine.table, alias: alias)
  }

  /// The condition that selects the rows in `state`, by its compiler-checked name:
  /// `orders.scope(in: .paid)`.
  public func scope(in state: Model.StateName, alias: String? = nil) -> PostgresStateScope {
    scope(in: state.rawValue, alias: alias)
  }
}
#endif
