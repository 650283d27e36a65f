#if Inspector
import Foundation

/// The page's files, from the package's resources (no data in them: the page asks the API).
enum PageResources {
  struct File: Sendable {
    let data: Data
    let type: String
  }

  /// The file served at `path`: `/` (or `/index.html`), `/app.js` (with its parts `/log.js`
  /// and `/store.js`), `/app.css`.
  static func file(for path: String) -> File? {
    switch path {
    case "/", "/index.html": return files["index.html"]
    case "/app.js", "/log.js", "/store.js", "/app.css": return files[String(path.dropFirst())]
    default: return nil
    }
  }

  /// Read once: the files do not change while the server runs.
  private static let files: [String: File] = {
    let types = [
      "index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
      "log.js": "text/javascript; charset=utf-8", "store.js": "text/javascript; charset=utf-8",
      "app.css": "text/css; charset=utf-8",
    ]
    var files: [String: File] = [:]
    guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else { return files }
    for (name, type) in types {
      if let data = try? Data(contentsOf: folder.appendingPathComponent(name)) {
        files[name] = File(data: data, type: type)
      }
    }
    return files
  }()
}
#endif
