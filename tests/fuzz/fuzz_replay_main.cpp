// Without libFuzzer (g++ builds): runs a fuzz target on every seed file and on deterministic
// mutations of each (flipped bytes, truncations, repeated chunks), so the regular and sanitizer
// test runs exercise the same entry point. Usage: fuzz_X SEED_DIR [mutations per seed]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SEED_DIR [mutations per seed]\n", argv[0]);
        return 2;
    }
    const int mutations = argc > 2 ? std::atoi(argv[2]) : 2000;
    std::uint64_t state = 0x853c49e6748fea9bull;
    auto random = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::size_t>(state >> 33);
    };
    std::size_t runs = 0, seeds = 0;
    for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
        std::ifstream in(entry.path(), std::ios::binary);
        const std::vector<std::uint8_t> seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ++seeds;
        LLVMFuzzerTestOneInput(seed.data(), seed.size());
        for (int m = 0; m < mutations; ++m) {
            std::vector<std::uint8_t> input = seed;
            const int edits = 1 + static_cast<int>(random() % 4);
            for (int e = 0; e < edits && !input.empty(); ++e) {
                const std::size_t at = random() % input.size();
                switch (random() % 4) {
                    case 0: input[at] ^= static_cast<std::uint8_t>(1u << (random() % 8)); break;
                    case 1: input[at] = static_cast<std::uint8_t>(random()); break;
                    case 2: input.resize(at); break;
                    default: {
                        const std::size_t length = std::min<std::size_t>(1 + random() % 16, input.size() - at);
                        std::vector<std::uint8_t> chunk(input.begin() + static_cast<long>(at),
                                                        input.begin() + static_cast<long>(at + length));
                        input.insert(input.begin() + static_cast<long>(random() % input.size()), chunk.begin(), chunk.end());
                    }
                }
            }
            LLVMFuzzerTestOneInput(input.data(), input.size());
            ++runs;
        }
    }
    std::printf("%zu seeds, %zu mutated inputs: no crash\n", seeds, runs);
    return seeds > 0 ? 0 : 1;
}
