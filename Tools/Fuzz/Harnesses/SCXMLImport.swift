// libFuzzer harness: the SCXML import, then a few events on what it loaded.
import Foundation
import StateMachines
import StateMachinesSCXML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSCXMLImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  FuzzDriver.load { try StateMachineDefinition<DynamicStateMachine>(scxml: Data(bytes: data, count: size), clock: $0.clock, bind: { _ in }, $0.limit) }
  return 0
}
