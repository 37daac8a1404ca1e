/// Whether this binary was built without optimisation (SwiftPM defines `DEBUG` in debug builds).
/// Benchmarks say so, because their figures mean nothing then.
package enum BuildConfiguration {
    #if DEBUG
    package static let isDebug = true
    #else
    package static let isDebug = false
    #endif
}
