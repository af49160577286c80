autocmd BufRead,BufNewFile *.zeno setfiletype zeno
autocmd BufRead,BufNewFile *.xta,*.ta setfiletype uppaal
autocmd BufRead,BufNewFile *.tck setfiletype tchecker
autocmd BufRead,BufNewFile *.q setfiletype uppaalq
