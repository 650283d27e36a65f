// A class whose `StoreManagedStateMachine` conformance is declared in another file than the class
// (StoreManagedDeclarationTests): the macro learns it from the compiler, not from syntax.

import StateMachines

extension ElsewhereTicket: StoreManagedStateMachine, @unchecked Sendable {
  var storeID: Int { id }
}
