// libFuzzer harness: the JSON loader (our format), then a few events on what it loaded.
import Foundation
import StateMachines

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  FuzzDriver.load { try StateMachineDefinition<DynamicStateMachine>(json: Data(bytes: data, count: size), clock: $0.clock, bind: { _ in }, $0.limit) }
  return 0
}
