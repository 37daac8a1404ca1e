/// Whether this binary was built without optimisation (SwiftPM defines `DEBUG` in debug builds).
/// Benchmarks say so, because their figures mean nothing then.
enum BuildConfiguration {
    #if DEBUG
    static let isDebug = true
    #else
    static let isDebug = false
    #endif
}
