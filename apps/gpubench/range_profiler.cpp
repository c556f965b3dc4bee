#include "apps/gpubench/range_profiler.hpp"

#include <algorithm>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include "apps/gpubench/cuda_check.hpp"
#include "apps/gpubench/exit_codes.hpp"

namespace gpubench {

namespace {

void cupti_check(CUptiResult status, const char* what) {
    if (status == CUPTI_SUCCESS) return;
    const char* text = nullptr;
    if (cuptiGetResultString(status, &text) != CUPTI_SUCCESS || text == nullptr) text = "unknown error";
    std::string message = std::string(what) + " failed: " + text + " (CUPTI error " +
                          std::to_string(static_cast<int>(status)) + ")";
    if (status == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        message += "; profiling needs root or the driver option NVreg_RestrictProfilingToAdminUsers=0";
    throw CuptiError(message);
}

#define GPUBENCH_CUPTI(call) cupti_check((call), #call)

// A zeroed CUPTI parameter struct with its size set, as every CUPTI call expects.
template <class Params>
Params params(std::size_t struct_size) {
    Params p{};
    p.structSize = struct_size;
    return p;
}
#define GPUBENCH_PARAMS(Type) params<Type>(Type##_STRUCT_SIZE)

// The current CUcontext, fetched through the runtime so that gpubench does not link libcuda
// (and so starts, and reports "no GPU" clearly, on machines without a driver).
CUcontext current_context() {
    using GetCurrent = CUresult (*)(CUcontext*);
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    cuda_check(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &function, 12000, cudaEnableDefault, &found),
               "cudaGetDriverEntryPointByVersion(cuCtxGetCurrent)");
    if (found != cudaDriverEntryPointSuccess || function == nullptr)
        throw CuptiError("the driver does not provide cuCtxGetCurrent");
    CUcontext context = nullptr;
    if (reinterpret_cast<GetCurrent>(function)(&context) != CUDA_SUCCESS || context == nullptr)
        throw CuptiError("no current CUDA context for the range profiler");
    return context;
}

// "l1tex__t_sectors_..._ld_lookup_hit.sum" and "l1tex__t_sector_..._ld_hit_rate.pct" both
// belong to "l1tex__t_sectors_..._ld".
std::string metric_family(const std::string& metric) {
    std::string base = metric.substr(0, metric.find('.'));
    for (const char* suffix : {"_lookup_hit", "_lookup_miss", "_hit_rate"}) {
        const std::string s = suffix;
        if (base.size() > s.size() && base.compare(base.size() - s.size(), s.size(), s) == 0) base.resize(base.size() - s.size());
    }
    const std::string singular = "__t_sector_";
    if (const std::size_t at = base.find(singular); at != std::string::npos) base.replace(at, singular.size(), "__t_sectors_");
    return base;
}

}  // namespace

// One single-pass metric group: its own host object (to build and evaluate its config image).
struct RangeProfiler::Group {
    std::vector<std::size_t> metric_indices;  // positions in metrics_
    std::vector<const char*> names;
    CUpti_Profiler_Host_Object* host = nullptr;
    std::vector<std::uint8_t> config_image;
    std::size_t passes = 0;
    ~Group() {
        if (host == nullptr) return;
        auto p = GPUBENCH_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
        p.pHostObject = host;
        cuptiProfilerHostDeinitialize(&p);
    }
};

std::unique_ptr<RangeProfiler::Group> RangeProfiler::make_group(const std::vector<std::size_t>& metric_indices) const {
    auto group = std::make_unique<Group>();
    group->metric_indices = metric_indices;
    for (std::size_t i : metric_indices) group->names.push_back(metrics_[i].c_str());

    auto host = GPUBENCH_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName = chip_.c_str();
    host.pCounterAvailabilityImage = availability_.data();
    GPUBENCH_CUPTI(cuptiProfilerHostInitialize(&host));
    group->host = host.pHostObject;

    auto add = GPUBENCH_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = group->host;
    add.ppMetricNames = group->names.data();
    add.numMetrics = group->names.size();
    GPUBENCH_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));

    auto size = GPUBENCH_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = group->host;
    GPUBENCH_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
    group->config_image.resize(size.configImageSize);
    auto image = GPUBENCH_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    image.pHostObject = group->host;
    image.configImageSize = group->config_image.size();
    image.pConfigImage = group->config_image.data();
    GPUBENCH_CUPTI(cuptiProfilerHostGetConfigImage(&image));

    auto passes = GPUBENCH_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    passes.configImageSize = group->config_image.size();
    passes.pConfigImage = group->config_image.data();
    GPUBENCH_CUPTI(cuptiProfilerHostGetNumOfPasses(&passes));
    group->passes = passes.numOfPasses;
    return group;
}

RangeProfiler::RangeProfiler(int device, std::vector<std::string> metrics) : metrics_(std::move(metrics)) {
    cuda_check(cudaSetDevice(device), "cudaSetDevice");
    cuda_check(cudaFree(nullptr), "CUDA context creation");
    context_ = current_context();

    auto init = GPUBENCH_PARAMS(CUpti_Profiler_Initialize_Params);
    GPUBENCH_CUPTI(cuptiProfilerInitialize(&init));

    auto chip = GPUBENCH_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = static_cast<std::size_t>(device);
    GPUBENCH_CUPTI(cuptiDeviceGetChipName(&chip));
    chip_ = chip.pChipName;

    auto avail = GPUBENCH_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    avail.ctx = static_cast<CUcontext>(context_);
    GPUBENCH_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
    availability_.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availability_.data();
    GPUBENCH_CUPTI(cuptiProfilerGetCounterAvailability(&avail));

    // Metrics of one family (a counter, its hits, its hit rate) are kept in one group, so their
    // ratios come from one run; whole families are packed greedily while a group needs one pass.
    std::vector<std::vector<std::size_t>> families;
    for (std::size_t m = 0; m < metrics_.size(); ++m) {
        auto same = [&](const std::vector<std::size_t>& f) { return metric_family(metrics_[f[0]]) == metric_family(metrics_[m]); };
        auto it = std::find_if(families.begin(), families.end(), same);
        if (it == families.end()) families.push_back({m});
        else it->push_back(m);
    }
    std::vector<std::size_t> current;
    auto close_current = [&] {
        if (!current.empty()) groups_.push_back(make_group(current));
        current.clear();
    };
    for (const std::vector<std::size_t>& family : families) {
        std::vector<std::size_t> trial = current;
        trial.insert(trial.end(), family.begin(), family.end());
        if (make_group(trial)->passes <= 1) {
            current = trial;
            continue;
        }
        close_current();
        if (make_group(family)->passes <= 1) {
            current = family;
            continue;
        }
        for (std::size_t m : family) groups_.push_back(make_group({m}));  // a family wider than a pass
    }
    close_current();
}

std::string RangeProfiler::describe_groups() const {
    std::string text;
    for (const std::unique_ptr<Group>& group : groups_) {
        text += text.empty() ? "{" : " {";
        for (std::size_t i = 0; i < group->names.size(); ++i) text += (i ? ", " : "") + std::string(group->names[i]);
        text += "}";
    }
    return text;
}

RangeProfiler::~RangeProfiler() {
    groups_.clear();
    auto p = GPUBENCH_PARAMS(CUpti_Profiler_DeInitialize_Params);
    cuptiProfilerDeInitialize(&p);
}

std::vector<double> RangeProfiler::measure(const std::string& range_name, const std::function<void()>& prepare,
                                           const std::function<void()>& launch) {
    std::vector<double> values(metrics_.size());
    for (const std::unique_ptr<Group>& group : groups_) {
        const std::vector<double> group_values = measure_group(*group, range_name, prepare, launch);
        for (std::size_t i = 0; i < group_values.size(); ++i) values[group->metric_indices[i]] = group_values[i];
    }
    return values;
}

std::vector<double> RangeProfiler::measure_group(Group& group, const std::string& range_name,
                                                 const std::function<void()>& prepare_pass,
                                                 const std::function<void()>& launch) {
    auto enable = GPUBENCH_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = static_cast<CUcontext>(context_);
    GPUBENCH_CUPTI(cuptiRangeProfilerEnable(&enable));
    CUpti_RangeProfiler_Object* object = enable.pRangeProfilerObject;
    // Disables the profiler on every exit, also when a step below throws.
    struct Disabler {
        CUpti_RangeProfiler_Object* object;
        ~Disabler() {
            auto p = GPUBENCH_PARAMS(CUpti_RangeProfiler_Disable_Params);
            p.pRangeProfilerObject = object;
            cuptiRangeProfilerDisable(&p);
        }
    } disabler{object};

    auto size = GPUBENCH_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = object;
    size.pMetricNames = group.names.data();
    size.numMetrics = group.names.size();
    size.maxNumOfRanges = 1;
    size.maxNumRangeTreeNodes = 1;
    GPUBENCH_CUPTI(cuptiRangeProfilerGetCounterDataSize(&size));
    std::vector<std::uint8_t> counter_data(size.counterDataSize);
    auto init = GPUBENCH_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = object;
    init.counterDataSize = counter_data.size();
    init.pCounterData = counter_data.data();
    GPUBENCH_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&init));

    auto config = GPUBENCH_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    config.pRangeProfilerObject = object;
    config.configSize = group.config_image.size();
    config.pConfig = group.config_image.data();
    config.counterDataImageSize = counter_data.size();
    config.pCounterDataImage = counter_data.data();
    config.range = CUPTI_UserRange;
    config.replayMode = CUPTI_UserReplay;
    config.maxRangesPerPass = 1;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    GPUBENCH_CUPTI(cuptiRangeProfilerSetConfig(&config));

    // One pass per loop; a pass limit guards against a profiler that never reports completion.
    bool all_submitted = false;
    for (std::size_t pass = 0; !all_submitted; ++pass) {
        if (pass > group.passes + 4)
            throw CuptiError("range profiler still wants passes after " + std::to_string(pass));
        prepare_pass();
        cuda_check(cudaDeviceSynchronize(), "synchronisation before a profiled pass");
        auto start = GPUBENCH_PARAMS(CUpti_RangeProfiler_Start_Params);
        start.pRangeProfilerObject = object;
        GPUBENCH_CUPTI(cuptiRangeProfilerStart(&start));
        auto push = GPUBENCH_PARAMS(CUpti_RangeProfiler_PushRange_Params);
        push.pRangeProfilerObject = object;
        push.pRangeName = range_name.c_str();
        GPUBENCH_CUPTI(cuptiRangeProfilerPushRange(&push));
        launch();
        cuda_check(cudaDeviceSynchronize(), "profiled launch");
        auto pop = GPUBENCH_PARAMS(CUpti_RangeProfiler_PopRange_Params);
        pop.pRangeProfilerObject = object;
        GPUBENCH_CUPTI(cuptiRangeProfilerPopRange(&pop));
        auto stop = GPUBENCH_PARAMS(CUpti_RangeProfiler_Stop_Params);
        stop.pRangeProfilerObject = object;
        GPUBENCH_CUPTI(cuptiRangeProfilerStop(&stop));
        all_submitted = stop.isAllPassSubmitted != 0;
    }

    auto decode = GPUBENCH_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = object;
    GPUBENCH_CUPTI(cuptiRangeProfilerDecodeData(&decode));
    if (decode.numOfRangeDropped != 0)
        throw CuptiError("range profiler dropped " + std::to_string(decode.numOfRangeDropped) + " range(s)");

    auto info = GPUBENCH_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = counter_data.data();
    info.counterDataImageSize = counter_data.size();
    GPUBENCH_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
    if (info.numTotalRanges != 1)
        throw CuptiError("expected one profiled range, got " + std::to_string(info.numTotalRanges));

    std::vector<double> values(group.names.size());
    auto eval = GPUBENCH_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = group.host;
    eval.pCounterDataImage = counter_data.data();
    eval.counterDataImageSize = counter_data.size();
    eval.rangeIndex = 0;
    eval.ppMetricNames = group.names.data();
    eval.numMetrics = group.names.size();
    eval.pMetricValues = values.data();
    GPUBENCH_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&eval));
    return values;
}

}  // namespace gpubench
