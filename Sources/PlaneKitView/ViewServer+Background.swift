import Dispatch
import Synchronization

/// Why the view's server could not start.
public struct ViewServerError: Error, CustomStringConvertible {
    /// One line for stderr.
    public let description: String
}

extension ViewServer {
    /// Starts the server on a task of its own and returns the bound port once it accepts
    /// connections, for a command line whose own thread then runs the stream; throws when it
    /// cannot listen (the address is taken or not this machine's) or has not started within
    /// `timeout` seconds.
    public func startInBackground(timeout: Double = 20) throws(ViewServerError) -> Int {
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Int, ViewServerError>?>(nil)
        let address = self.address
        let server = self
        Task.detached {
            do {
                try await server.run { port in
                    outcome.withLock { $0 = $0 ?? .success(port) }
                    started.signal()
                }
            } catch {
                outcome.withLock { $0 = $0 ?? .failure(ViewServerError(description: "cannot listen on \(address): \(error)")) }
                started.signal()
            }
        }
        guard started.wait(timeout: .now() + timeout) == .success else {
            throw ViewServerError(description: "the view's server on \(address) did not start within \(Int(timeout)) s")
        }
        switch outcome.withLock({ $0 }) {
        case .success(let port): return port
        case .failure(let error): throw error
        case nil: throw ViewServerError(description: "the view's server on \(address) stopped before it started")
        }
    }
}
