// Records the example kernels on the host (no GPU): the bodies of examples/kernels.hpp run for
// every thread of the launch (traces/recorder_host.hpp).
#include "examples/host_backend.hpp"
#include "examples/record_main.hpp"

int main(int argc, char** argv) {
    cachesim::examples::HostBackend backend;
    return cachesim::examples::record_main(argc, argv, backend);
}
