#pragma once
// MPI for sweeps, present when cachesim was built with OpenMPI. MPI is initialised only when the
// process was started by mpirun (its environment says so); otherwise this is a one-rank run
// and cachesim runs normally.
#include <string>
#include <vector>

namespace cachesim::cli {

class MpiSession {
public:
    MpiSession();
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    bool active() const { return active_; }

    // Waits until every rank gets here (no-op without MPI).
    void barrier();
    // True on every rank when every rank passes true (collective).
    bool all_succeeded(bool mine);
    // Every rank's string, in rank order, at rank 0; empty elsewhere (collective).
    std::vector<std::string> gather(const std::string& mine);

private:
    int rank_ = 0, size_ = 1;
    bool active_ = false;
};

// Whether this build has MPI support, for --help and messages.
bool built_with_mpi();

}  // namespace cachesim::cli
