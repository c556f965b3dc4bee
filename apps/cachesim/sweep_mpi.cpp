#include "apps/cachesim/sweep_mpi.hpp"

#include <cstdlib>

#include "traces/input_error.hpp"

#ifdef CACHESIM_HAVE_MPI
#include <mpi.h>
#endif

namespace cachesim::cli {

namespace {

// Set by OpenMPI's, MPICH's (Hydra) and PMIx launchers in every process they start.
bool started_by_mpirun() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(name)) return true;
    return false;
}

}  // namespace

#ifdef CACHESIM_HAVE_MPI

bool built_with_mpi() { return true; }

MpiSession::MpiSession() {
    if (!started_by_mpirun()) return;
    int provided = 0;
    // Only the main thread calls MPI; the worker threads only simulate.
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw InputError("MPI_Init failed");
    active_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
    if (active_) MPI_Finalize();
}

void MpiSession::barrier() {
    if (active_) MPI_Barrier(MPI_COMM_WORLD);
}

bool MpiSession::all_succeeded(bool mine) {
    if (!active_) return mine;
    int local = mine ? 1 : 0, all = 0;
    MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
}

std::vector<std::string> MpiSession::gather(const std::string& mine) {
    if (!active_) return {mine};
    const unsigned long long length = mine.size();
    std::vector<unsigned long long> lengths(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
    MPI_Gather(&length, 1, MPI_UNSIGNED_LONG_LONG, lengths.data(), 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    std::vector<int> counts, displacements;
    std::string all;
    if (rank_ == 0) {
        unsigned long long total = 0;
        for (unsigned long long l : lengths) {
            if (l > (1ull << 30) || total > (1ull << 30)) throw InputError("MPI gather: results too large");
            counts.push_back(static_cast<int>(l));
            displacements.push_back(static_cast<int>(total));
            total += l;
        }
        all.resize(total);
    }
    MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(), counts.data(),
                displacements.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> parts;
    for (std::size_t r = 0; r < counts.size(); ++r)
        parts.push_back(all.substr(static_cast<std::size_t>(displacements[r]), static_cast<std::size_t>(counts[r])));
    return parts;
}

#else

bool built_with_mpi() { return false; }

MpiSession::MpiSession() {
    if (started_by_mpirun())
        throw InputError("started by mpirun, but this cachesim was built without MPI (install libopenmpi-dev "
                         "and rebuild)");
}

MpiSession::~MpiSession() = default;
void MpiSession::barrier() {}
bool MpiSession::all_succeeded(bool mine) { return mine; }
std::vector<std::string> MpiSession::gather(const std::string& mine) { return {mine}; }

#endif

}  // namespace cachesim::cli
