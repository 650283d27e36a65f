// swift-tools-version: 6.1
import PackageDescription

// The `statemachine` command-line tool: validate, render and run definitions kept as data (our
// JSON, TBStateMachine JSON, SCXML). A package of its own, so that the library keeps no
// dependency but swift-syntax for its macro.
let package = Package(
  name: "StateMachinesTools",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "statemachine", targets: ["statemachine"]),
  ],
  dependencies: [
    // The traits SQLite and PostgreSQL bring the stores for `statemachine store` (Persistence §11),
    // Inspector the page of `statemachine inspect`.
    .package(name: "StateMachines", path: "..", traits: ["SQLite", "PostgreSQL", "Inspector"]),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
  ],
  targets: [
    .executableTarget(
      name: "statemachine",
      dependencies: [
        .product(name: "StateMachines", package: "StateMachines"),
        .product(name: "StateMachinesSCXML", package: "StateMachines"),
        .product(name: "StateMachinesSQLite", package: "StateMachines"),
        .product(name: "StateMachinesPostgres", package: "StateMachines"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "StateMachinesInspector", package: "StateMachines"),
      ]
    ),
    // Runs the built `statemachine` on a chart per definition error (Hierarchy §7).
    .testTarget(
      name: "statemachineTests",
      dependencies: [
        .product(name: "StateMachines", package: "StateMachines"),
        .product(name: "StateMachinesSCXML", package: "StateMachines"),
        // Tests of `statemachine store` read and damage the database with SQL: a SQLite file, or
        // a schema of a PostgreSQL server (STATEMACHINES_PG_URL).
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
