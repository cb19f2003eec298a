/* Placeholder so the sampling layer library is never empty; removed once the layer has code. */
typedef int lineup_sampling_placeholder;
