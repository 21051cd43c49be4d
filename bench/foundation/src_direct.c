/* libsamplerate called directly: raw mono f32 in, raw mono f32 out, one converter.
 * Usage: src-direct CONVERTER RATIO < in.f32 > out.f32 (CONVERTER: 0 best .. 4 linear).
 * Streams in blocks, as aresample does, so both do the same work. */
#include <samplerate.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: src-direct CONVERTER RATIO\n"); return 64; }
    int error = 0;
    SRC_STATE *state = src_new(atoi(argv[1]), 1, &error);
    if (!state) { fprintf(stderr, "src-direct: %s\n", src_strerror(error)); return 1; }
    double ratio = atof(argv[2]);
    enum { BLOCK = 4096 };
    static float in[BLOCK], out[BLOCK * 8];
    SRC_DATA data = {0};
    data.src_ratio = ratio;
    size_t got;
    int eof = 0;
    while (!eof) {
        got = fread(in, sizeof(float), BLOCK, stdin);
        eof = got < BLOCK;
        data.data_in = in;
        data.input_frames = (long)got;
        data.end_of_input = eof;
        do {
            data.data_out = out;
            data.output_frames = BLOCK * 8;
            if ((error = src_process(state, &data))) { fprintf(stderr, "src-direct: %s\n", src_strerror(error)); return 1; }
            fwrite(out, sizeof(float), (size_t)data.output_frames_gen, stdout);
            data.data_in += data.input_frames_used;
            data.input_frames -= data.input_frames_used;
        } while (data.input_frames > 0 || (eof && data.output_frames_gen > 0));
    }
    src_delete(state);
    return 0;
}
