# Megatron-LM arguments for "LLaMA-2 70B": 64 ranks = DP 8 x PP 1 x TP 8.
# Use: torchrun --nnodes N --nproc-per-node G pretrain_gpt.py "${MEGATRON_ARGS[@]}" plus your data, tokenizer, learning-rate and checkpoint flags.
# Flags: NVIDIA/Megatron-LM megatron/training/arguments.py (tag core_v0.15.3); DP is the world size / (TP x PP x CP).
MEGATRON_ARGS=(
    # parallelism
    --tensor-model-parallel-size 8
    --pipeline-model-parallel-size 1
    # ZeRO-3: Megatron-FSDP (core 0.14 or later; README.md "Fully Sharded Data Parallel", docs/source/api-guide/custom_fsdp.md)
    --use-megatron-fsdp
    --data-parallel-sharding-strategy optim_grads_params
    --use-distributed-optimizer
    --no-gradient-accumulation-fusion
    --ckpt-format fsdp_dtensor
    # model shape
    --num-layers 80
    --hidden-size 8192
    --ffn-hidden-size 28672
    --num-attention-heads 64
    --group-query-attention
    --num-query-groups 8
    --seq-length 4096
    --max-position-embeddings 4096
    --normalization RMSNorm
    --swiglu
    --position-embedding-type rope
    --disable-bias-linear
    --norm-epsilon 1e-05
    --untie-embeddings-and-output-weights
    # dropout as the model's config has it (Megatron-LM's default is 0.1)
    --attention-dropout 0
    --hidden-dropout 0
    # vocabulary: 32000 tokens, from your tokenizer (--tokenizer-type, --tokenizer-model)
    # batch: 4 micro-batches x micro-batch size 8 per DP rank and step
    --micro-batch-size 8
    --global-batch-size 256
    --bf16
    --attention-backend flash
    --optimizer adam
)
