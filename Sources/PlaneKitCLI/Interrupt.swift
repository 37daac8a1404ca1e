#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Set by the first SIGINT once ``Interrupt/catchFirst()`` has run.
private let interruptRequested = Atomic<Bool>(false)

/// Ctrl-C as a request to stop cleanly (`stream --save-map`): the first SIGINT only sets a flag
/// that the work checks between records; a second one kills the process as usual.
enum Interrupt {
    /// Catches the next SIGINT. The handler is installed without `SA_RESTART`, so a read blocked
    /// on a slow input returns (`EINTR`) and the reader can see the request; with
    /// `SA_RESETHAND`, a second Ctrl-C ends the process at once.
    static func catchFirst() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptRequested.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)  // 0x80000000: the sign bit
        sigaction(SIGINT, &action, nil)
        // A parent may have started this process with SIGINT blocked (the mask survives exec).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Whether a caught SIGINT asked to stop.
    static var requested: Bool { interruptRequested.load(ordering: .relaxed) }

    /// The exit status of a process ended by SIGINT (128 + 2), as shells report it.
    static let exitStatus: Int32 = 130
}
