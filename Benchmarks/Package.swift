// swift-tools-version: 6.1
import PackageDescription

// Micro-benchmarks of the StateMachines runtime against hand-written baselines.
// Run with: swift run -c release StateMachinesBenchmarks
let package = Package(
  name: "StateMachinesBenchmarks",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "StateMachinesBenchmarks", targets: ["Benchmarks"]),
    .executable(name: "StoreBenchmark", targets: ["StoreBenchmark"]),
    .executable(name: "PathsBenchmark", targets: ["PathsBenchmark"]),
  ],
  dependencies: [
    .package(name: "StateMachines", path: "..", traits: ["SQLite", "PostgreSQL"]),
    // The store benchmark's hand-written baselines use GRDB and postgres-nio directly.
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
  ],
  targets: [
    // The baselines live in their own module, without @inlinable and with private storage (which
    // keeps the compiler's default cross-module optimisation from serialising their bodies), so
    // every call into them is a real, opaque call: the optimiser can neither inline their bodies
    // into the benchmark loops nor hoist a read-only call out of a loop.
    .target(name: "Baselines"),
    // Counts heap allocations (Linux/glibc), so each row can print its mallocs per event.
    .target(name: "MallocCounter"),
    .executableTarget(
      name: "Benchmarks",
      dependencies: ["Baselines", "MallocCounter", .product(name: "StateMachines", package: "StateMachines")]
    ),
    // The SQLite store against hand-written GRDB transactions on the same database file, and the
    // PostgreSQL store against hand-written postgres-nio transactions on the same table.
    .executableTarget(
      name: "StoreBenchmark",
      dependencies: [
        .product(name: "StateMachines", package: "StateMachines"),
        .product(name: "StateMachinesSQLite", package: "StateMachines"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "StateMachinesPostgres", package: "StateMachines"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]
    ),
    // The path generator (StateMachinePaths) on large charts, on the wall clock.
    .executableTarget(
      name: "PathsBenchmark",
      dependencies: [.product(name: "StateMachines", package: "StateMachines")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
