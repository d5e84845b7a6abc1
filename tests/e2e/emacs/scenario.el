;;; scenario.el --- drive the ascend-migrate server from Emacs eglot in batch mode  -*- lexical-binding: t -*-
;; Open a file, wait for the server's diagnostics, ask for the code actions at one diagnostic, apply the
;; chosen one, save, with the set-up users copy (docs/editors/emacs/ascend-migrate-eglot.el). Input: the JSON file named by $ASCEND_MIGRATE_SCENARIO; output: a JSON report at its
;; "report" path. Run as `emacs --batch -q -l scenario.el` (-q, not -Q: -Q hides Debian's elpa-eglot).
;; Flymake never runs in batch mode (it starts on an idle timer), so the diagnostics are read from
;; eglot's own store, `eglot--diagnostics', and the code-action request is built here.
(require 'eglot)
(require 'json)
(require 'python)
(require 'cl-lib)

(defvar scenario
  (with-temp-buffer
    (insert-file-contents (getenv "ASCEND_MIGRATE_SCENARIO"))
    (json-parse-buffer :object-type 'plist :array-type 'list)))
(defvar report (list :diagnostics nil :actions nil :steps nil))
(defvar timeout-seconds (/ (plist-get scenario :timeout_ms) 1000.0))

(defun scenario-step (text)
  (setq report (plist-put report :steps (append (plist-get report :steps) (list text)))))

(defun write-report ()
  ;; json-encode would read a list of plists as an alist: lists become vectors (JSON arrays) first.
  (let ((encodable (cl-loop for (key value) on report by #'cddr
                            append (list key (if (and value (listp value)) (vconcat value) value)))))
    (with-temp-file (plist-get scenario :report)
      (insert (json-encode encodable)))))

(defun scenario-fail (message)
  (setq report (plist-put report :error message))
  (write-report)
  (princ (format "scenario failed: %s\n" message) #'external-debugging-output)
  (kill-emacs 2))

(defun wait-until (predicate what)
  (let ((deadline (+ (float-time) timeout-seconds)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (scenario-fail (format "%s did not happen within %s s" what timeout-seconds)))
      (accept-process-output nil 0.05))))

(defun lsp-diagnostic (flymake-diagnostic)
  (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data flymake-diagnostic))))

;; The documented set-up, loaded as is; only the install is this test's own.
(setq ascend-migrate-command (plist-get scenario :console_script))
(load (plist-get scenario :setup) nil t)
(setq eglot-sync-connect t
      eglot-autoshutdown t
      python-indent-guess-indent-offset nil)

(condition-case failure
    (progn
      (find-file (plist-get scenario :file))
      (python-mode)
      (apply #'eglot (eglot--guess-contact))
      (wait-until (lambda () (eglot-current-server)) "connecting to the server")
      (scenario-step "connected")
      (wait-until (lambda () eglot--diagnostics) "the first diagnostics")
      ;; The first publish may come while the server still works through the file: wait for a quiet moment.
      (let ((count -1) (since (float-time)))
        (wait-until (lambda ()
                      (let ((now (length eglot--diagnostics)))
                        (unless (= now count) (setq count now since (float-time)))
                        (> (- (float-time) since) 0.5)))
                    "the diagnostics settling"))
      (setq report
            (plist-put report :diagnostics
                       (mapcar (lambda (diagnostic)
                                 (let* ((lsp (lsp-diagnostic diagnostic))
                                        (start (plist-get (plist-get lsp :range) :start)))
                                   (list :line (1+ (plist-get start :line))
                                         :column (1+ (plist-get start :character))
                                         :code (plist-get lsp :code)
                                         :severity (plist-get lsp :severity)
                                         :message (plist-get lsp :message))))
                               eglot--diagnostics)))
      (scenario-step "diagnostics received")
      (let* ((fix-line (1- (plist-get scenario :fix_line)))
             (on-line (seq-filter (lambda (diagnostic)
                                    (= fix-line (plist-get (plist-get (plist-get (lsp-diagnostic diagnostic) :range)
                                                                      :start)
                                                           :line)))
                                  eglot--diagnostics))
             (lsp-diagnostics (mapcar #'lsp-diagnostic on-line))
             (server (eglot-current-server))
             actions chosen)
        (unless lsp-diagnostics
          (scenario-fail (format "no diagnostic on line %d" (1+ fix-line))))
        (setq actions
              (jsonrpc-request server :textDocument/codeAction
                               (list :textDocument (eglot--TextDocumentIdentifier)
                                     :range (plist-get (car lsp-diagnostics) :range)
                                     :context (list :diagnostics (vconcat lsp-diagnostics)
                                                    :only ["quickfix"]))
                               :timeout timeout-seconds))
        (seq-doseq (action actions)
          (setq report (plist-put report :actions
                                  (append (plist-get report :actions) (list (plist-get action :title)))))
          (when (and (not chosen) (string-search (plist-get scenario :action_contains) (plist-get action :title)))
            (setq chosen action)))
        (unless chosen
          (scenario-fail (format "no code action titled like %S on line %d"
                                 (plist-get scenario :action_contains) (1+ fix-line))))
        (setq report (plist-put report :applied (plist-get chosen :title)))
        (when (and (not (plist-get chosen :edit)) (not (plist-get chosen :command)))
          (setq chosen (jsonrpc-request server :codeAction/resolve chosen :timeout timeout-seconds)))
        (when (plist-get chosen :edit)
          (eglot--apply-workspace-edit (plist-get chosen :edit)))
        (let ((command (plist-get chosen :command)))
          (when command
            (eglot-execute-command server (intern (plist-get command :command)) (plist-get command :arguments))))
        (scenario-step "code action applied")
        (save-buffer)
        (scenario-step "file written")
        (write-report)
        (eglot-shutdown server)
        (kill-emacs 0)))
  (error (scenario-fail (error-message-string failure))))
